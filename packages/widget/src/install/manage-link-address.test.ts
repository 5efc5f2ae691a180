/** The manage link in the page's address: how it is written, read, taken out of the address bar and kept. */
import { MANAGE_TOKEN_FRAGMENT_PARAM } from '@esim-embed/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetManageToken,
  MANAGE_FRAGMENT_PARAM,
  manageLinkFor,
  manageTokenInFragment,
  takeFollowedManageToken,
  takeManageToken,
} from './manage-link-address';

const TOKEN = 'k7q2mxw4abcdefghijklmnopqr';

afterEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('writing a manage link', () => {
  it('uses the shared fragment parameter', () => {
    expect(MANAGE_FRAGMENT_PARAM).toBe(MANAGE_TOKEN_FRAGMENT_PARAM);
  });

  it('puts the widget and the token in the page address’s fragment, keeping the path, the query and other fragment parameters', () => {
    expect(manageLinkFor('https://shop.example/trips?ref=1', TOKEN, 'acme')).toBe(
      `https://shop.example/trips?ref=1#esim=acme.${TOKEN}`,
    );
    expect(
      manageLinkFor('https://shop.example/#tab=esim&esim-manage=old&esim-widget=acme', TOKEN, 'acme'),
    ).toBe(`https://shop.example/#tab=esim&esim=acme.${TOKEN}`);
  });

  it('fits an SMS: at most 80 characters on a typical partner page', () => {
    const link = manageLinkFor('https://travel.example.com/esim', TOKEN, 'acme');
    expect(link).toBe(`https://travel.example.com/esim#esim=acme.${TOKEN}`);
    expect(link.length).toBeLessThanOrEqual(80);
  });
});

describe('reading a manage link', () => {
  it('reads the token for its widget, alone or beside other parameters, and nothing else counts', () => {
    expect(manageTokenInFragment(`#esim=acme.${TOKEN}`, 'acme')).toBe(TOKEN);
    expect(manageTokenInFragment(`#tab=2&esim=acme.${TOKEN}`, 'acme')).toBe(TOKEN);
    expect(manageTokenInFragment(`#esim=other.${TOKEN}`, 'acme')).toBeNull();
    expect(manageTokenInFragment(`#esim=${TOKEN}`, 'acme')).toBeNull();
    expect(manageTokenInFragment('#esim=acme.', 'acme')).toBeNull();
    expect(manageTokenInFragment('#other=tok', 'acme')).toBeNull();
    expect(manageTokenInFragment('', 'acme')).toBeNull();
  });

  it('reads links of the release before: any widget when unnamed, only the named one otherwise', () => {
    expect(manageTokenInFragment('#esim-manage=a.b.c', 'acme')).toBe('a.b.c');
    expect(manageTokenInFragment('#esim-manage=a.b.c&esim-widget=acme', 'acme')).toBe('a.b.c');
    expect(manageTokenInFragment('#esim-manage=a.b.c&esim-widget=other', 'acme')).toBeNull();
    expect(manageTokenInFragment('#esim-manage=', 'acme')).toBeNull();
  });
});

describe('the token out of the address bar', () => {
  it('is taken out of the address once read (path, query, other fragment parameters and history state kept) and kept for the tab', () => {
    history.pushState({ page: 'trips' }, '', `/trips?ref=1#tab=2&esim=acme.${TOKEN}`);
    const entries = history.length;
    expect(takeManageToken('acme')).toBe(TOKEN);
    expect(location.href).toBe(`${location.origin}/trips?ref=1#tab=2`);
    expect(location.href).not.toContain(TOKEN);
    expect(history.state).toEqual({ page: 'trips' });
    expect(history.length).toBe(entries);
    // A reload of the tab opens the same view from sessionStorage.
    expect(takeManageToken('acme')).toBe(TOKEN);
    expect(takeFollowedManageToken('acme')).toBeNull();
  });

  it('leaves no fragment at all when the link had only the token, and a link of the release before too', () => {
    history.replaceState(null, '', `/esim#esim=acme.${TOKEN}`);
    takeManageToken('acme');
    expect(location.href).toBe(`${location.origin}/esim`);
    history.replaceState(null, '', '/esim#esim-manage=a.b.c&esim-widget=acme');
    expect(takeManageToken('acme')).toBe('a.b.c');
    expect(location.hash).toBe('');
  });

  it('leaves a link for another widget of the page in the address, for that widget', () => {
    history.replaceState(null, '', `/#esim=other.${TOKEN}`);
    expect(takeManageToken('acme')).toBeNull();
    expect(location.hash).toBe(`#esim=other.${TOKEN}`);
    expect(takeManageToken('other')).toBe(TOKEN);
    expect(location.hash).toBe('');
  });

  it('forgets a token the BFF refused', () => {
    history.replaceState(null, '', `/#esim=acme.${TOKEN}`);
    takeManageToken('acme');
    forgetManageToken('acme');
    expect(takeManageToken('acme')).toBeNull();
  });
});
