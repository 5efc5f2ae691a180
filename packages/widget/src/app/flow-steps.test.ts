/** The manage link's address and the token read back from a page's fragment; the remembered top-up. */
import { MANAGE_TOKEN_FRAGMENT_PARAM } from '@esim-embed/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetCheckout,
  MANAGE_FRAGMENT_PARAM,
  manageLinkFor,
  manageTokenInFragment,
  recalledCheckout,
  rememberCheckout,
} from './flow-steps';

afterEach(() => sessionStorage.clear());

describe('manage links', () => {
  it('use the shared fragment parameter', () => {
    expect(MANAGE_FRAGMENT_PARAM).toBe(MANAGE_TOKEN_FRAGMENT_PARAM);
  });

  it('put the token and the widget in the page address’s fragment, keeping the path, the query and other fragment parameters', () => {
    expect(manageLinkFor('https://shop.example/trips?ref=1', 'tok_123', 'acme')).toBe(
      'https://shop.example/trips?ref=1#esim-manage=tok_123&esim-widget=acme',
    );
    expect(manageLinkFor('https://shop.example/#tab=esim&esim-manage=old', 'new', 'acme')).toBe(
      'https://shop.example/#tab=esim&esim-manage=new&esim-widget=acme',
    );
    const url = new URL(manageLinkFor('https://shop.example/', 'a+b/c==', 'acme'));
    expect(url.search).toBe('');
    expect(manageTokenInFragment(url.hash, 'acme')).toBe('a+b/c==');
  });

  it('are read from a fragment, alone or beside other parameters, and nothing else counts', () => {
    expect(manageTokenInFragment('#esim-manage=tok_1', 'acme')).toBe('tok_1');
    expect(manageTokenInFragment('#tab=2&esim-manage=tok_2', 'acme')).toBe('tok_2');
    expect(manageTokenInFragment('#esim-manage=', 'acme')).toBeNull();
    expect(manageTokenInFragment('#other=tok', 'acme')).toBeNull();
    expect(manageTokenInFragment('', 'acme')).toBeNull();
  });

  it('open only the widget they name, on a page with several (a link without a name opens any)', () => {
    expect(manageTokenInFragment('#esim-manage=tok&esim-widget=acme', 'acme')).toBe('tok');
    expect(manageTokenInFragment('#esim-manage=tok&esim-widget=other', 'acme')).toBeNull();
  });
});

describe('the remembered checkout', () => {
  it('keeps a top-up’s eSIM and manage token, so that a reload resumes the top-up', () => {
    const handle = {
      id: 'chk_1',
      clientSecret: 'secret_0123456789abcdef',
      topUp: { esimId: 'esim_1', manageToken: 'mt_1' },
    };
    rememberCheckout('acme', handle);
    expect(recalledCheckout('acme')).toEqual(handle);
    forgetCheckout('acme');
    expect(recalledCheckout('acme')).toBeNull();
  });
});
