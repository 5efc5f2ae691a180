/**
 * `pay` against the real BFF and sandbox over HTTP when the BFF starts no more payments for the traveller: the
 * address that opened the checkout already has as many payments in progress (started, neither confirmed nor
 * declined) as the BFF allows, so `pay` charges nothing and answers `too_many_payments`; a payment started again
 * while it runs is answered as it is; once one of the running payments is declined, the checkout pays. A stack of
 * its own: no other test's checkouts count against the address.
 */
import {
  checkoutAsTraveller,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '@esim-embed/bff/testing';
import type { PartnerCheckout } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from './partner-client';

let stack: Stack;
let esim: PartnerClient;
beforeAll(async () => {
  stack = await startStack({ config: (url) => testConfig(url, { paymentHolds: { perAddress: 2 } }) });
  esim = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: PARTNER_SECRET });
});
afterAll(async () => {
  await stack?.close();
});

describe('pay, when the traveller has payments in progress', () => {
  it('charges nothing while the address has as many as the BFF allows, and pays once one is declined', async () => {
    // Two payments started and left running (the address may have two), and a third checkout to pay.
    const running = [
      await checkoutAsTraveller(stack.server.url, 'shop-pay'),
      await checkoutAsTraveller(stack.server.url, 'shop-pay'),
    ];
    const checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay');
    for (const id of running) await esim.checkouts.startPayment(id);
    // Started again while it runs: answered as it is, nothing counted twice.
    expect((await esim.checkouts.startPayment(running[0] as string)).status).toBe('awaiting_payment');
    const charges: string[] = [];
    const payment = {
      charge: async (_checkout: PartnerCheckout, key: string) => {
        charges.push(key);
        return `pay_${key}`;
      },
      refund: async () => {
        throw new Error('nothing to refund');
      },
    };
    const refused = await esim.checkouts.pay(checkoutId, payment);
    expect(refused).toMatchObject({ outcome: 'too_many_payments', scope: 'address', paymentReference: null });
    expect(refused.outcome === 'too_many_payments' && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.checkout.status).toBe('awaiting_payment');
    expect(charges).toEqual([]);

    // One of the running payments is declined: it is no longer in progress, and this checkout pays.
    await esim.checkouts.decline(running[0] as string, { attempt: 1 });
    const paid = await esim.checkouts.pay(checkoutId, payment);
    expect(paid).toMatchObject({ outcome: 'confirmed', paymentReference: `pay_${checkoutId}` });
    expect(charges).toEqual([checkoutId]);
  });
});
