/** The remembered checkout, a top-up's included. */
import { afterEach, describe, expect, it } from 'vitest';
import { forgetCheckout, recalledCheckout, rememberCheckout } from './flow-steps';

afterEach(() => sessionStorage.clear());

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
