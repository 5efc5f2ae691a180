/**
 * A traveller's data through the partner client, against the real BFF and sandbox: exported with the address,
 * erased (the receipt pending, then completed once the job ran), exported again without it; a subject that names
 * none or two travellers is refused as the API's error.
 */
import { newKey, openWidget, PARTNER_SECRET, type Stack, startStack } from '@esim-embed/bff/testing';
import type { Plan } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerApiError } from './partner-api-error';
import { createPartnerClient, type PartnerClient } from './partner-client';

const ADDRESS = 'sdk.erased.traveller@example.org';

let stack: Stack;
let esim: PartnerClient;
beforeAll(async () => {
  stack = await startStack({ bffOptions: { startWorkers: false } });
  esim = createPartnerClient({ baseUrl: stack.server.url, partnerSecret: PARTNER_SECRET });
});
afterAll(async () => {
  await stack?.close();
});

/** A checkout of `shop-pay` made with the traveller's address; answers its id. */
async function checkoutWithAddress(): Promise<string> {
  const page = await openWidget(stack.server.url, 'shop-pay');
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
  const plan = (plans.body.data as Plan[])[0];
  const quote = await page.post('/v1/quotes', { offerId: plan?.offerId }, { 'Idempotency-Key': newKey() });
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true, email: ADDRESS },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status, checkout.text).toBe(201);
  return checkout.body.data.id;
}

describe('a traveller’s data in the partner client', () => {
  it('exports it, erases it, and exports nothing personal after', async () => {
    const checkoutId = await checkoutWithAddress();
    const held = await esim.privacy.exportTraveller({ email: ADDRESS });
    expect(held.checkouts).toEqual([expect.objectContaining({ id: checkoutId, email: ADDRESS })]);

    const receipt = await esim.privacy.eraseTraveller({ email: ADDRESS }, { idempotencyKey: 'erase-once' });
    expect(receipt).toMatchObject({ status: 'pending', subject: { kind: 'email', id: null } });
    await stack.bff.privacyErasures.runDue();
    const done = await esim.privacy.readErasure(receipt.id);
    expect(done).toMatchObject({ id: receipt.id, status: 'completed', erased: { checkouts: 1 } });
    expect(await esim.privacy.eraseTraveller({ email: ADDRESS }, { idempotencyKey: 'erase-once' })).toEqual(
      done,
    );

    expect((await esim.privacy.exportTraveller({ email: ADDRESS })).checkouts).toEqual([]);
    const sale = await esim.privacy.exportTraveller({ checkoutId });
    expect(sale.checkouts).toEqual([expect.objectContaining({ id: checkoutId, email: null })]);
  });

  it('refuses a subject naming two travellers', async () => {
    const refused = await esim.privacy
      .eraseTraveller({ email: ADDRESS, checkoutId: 'chk_abcdefgh12' } as never)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PartnerApiError);
    expect(refused).toMatchObject({ code: 'validation_failed' });
  });
});
