/**
 * Every order and eSIM state the contract names, produced by the real sandbox (payment scenarios armed through
 * its control API, its clock moved step by step) and read through the BFF over HTTP: an order that opens as
 * `draft` and awaits payment keeps the checkout `provisioning` until it is paid and delivered; one that expires
 * unpaid fails the checkout with a retryable `expired_unpaid`; the eSIM is `issued` before it is `delivered`, and
 * a profile `downloaded` or `disabled` counts as installed, one `unknown` does not.
 * (`refund_requested` and `refunded`: refunds-reissues.test.ts.)
 */
import { SANDBOX_ACCOUNTS } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  EsimViewResponseSchema,
  PARTNER_SECRET_HEADER,
  PartnerCheckoutResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myEsim, topUpablePlan } from '../../testing/after-sale-flow';
import { call, newKey, openWidget, PARTNER_SECRET, type Stack, startStack } from '../../testing/stack';

const STEP_MS = 60_000;

let stack: Stack;
beforeAll(async () => {
  // Steps of a minute that only the sandbox's clock moves: every state is read before it passes.
  stack = await startStack({
    sandbox: { stepDelaysMs: { provisioning: STEP_MS, delivery: STEP_MS, completion: STEP_MS } },
  });
});
afterAll(async () => {
  await stack?.close();
});

/** A direct checkout, its id and secret. */
async function buy() {
  const page = await openWidget(stack.server.url, 'shop');
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  const created = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(created.status, created.text).toBe(201);
  return { page, id: created.body.data.id as string, secret: created.body.data.clientSecret as string };
}

/** The checkout as the traveller and as the partner read it: [checkout status, order status]. */
async function seen(checkout: Awaited<ReturnType<typeof buy>>) {
  const traveller = await checkout.page.get(`/v1/checkouts/${checkout.id}`, {
    [CHECKOUT_SECRET_HEADER]: checkout.secret,
  });
  const partner = await call(stack.server.url, `/v1/partner/checkouts/${checkout.id}`, {
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
  });
  const read = PartnerCheckoutResponseSchema.parse(partner.body).data;
  expect(traveller.body.data.status).toBe(read.status);
  return [read.status, read.order?.status ?? null];
}

/** Steps the sandbox's clock and reads the checkout after each. */
async function walk(checkout: Awaited<ReturnType<typeof buy>>, steps: number) {
  const states = [await seen(checkout)];
  for (let step = 0; step < steps; step += 1) {
    await stack.sandbox.control.advanceClock(STEP_MS);
    states.push(await seen(checkout));
  }
  return states;
}

describe('order states the sandbox produces, read through the BFF', () => {
  it('draft → awaiting_payment → paid keeps the checkout provisioning until the eSIM is delivered', async () => {
    await stack.sandbox.control.armScenario({
      accountId: SANDBOX_ACCOUNTS.globetrotter,
      scenario: 'awaiting_payment',
    });
    const checkout = await buy();
    expect(await walk(checkout, 5)).toEqual([
      ['provisioning', 'draft'],
      ['provisioning', 'awaiting_payment'],
      ['provisioning', 'paid'],
      ['provisioning', 'provisioning'],
      ['ready', 'delivered'],
      ['ready', 'completed'],
    ]);
  });

  it('draft → awaiting_payment → expired_unpaid fails the checkout, retryable', async () => {
    await stack.sandbox.control.armScenario({
      accountId: SANDBOX_ACCOUNTS.globetrotter,
      scenario: 'expired_unpaid',
    });
    const checkout = await buy();
    expect(await walk(checkout, 2)).toEqual([
      ['provisioning', 'draft'],
      ['provisioning', 'awaiting_payment'],
      ['failed', 'expired_unpaid'],
    ]);
    const read = await checkout.page.get(`/v1/checkouts/${checkout.id}`, {
      [CHECKOUT_SECRET_HEADER]: checkout.secret,
    });
    expect(read.body.data.failure).toEqual({ code: 'expired_unpaid', retryable: true });
  });

  it('the eSIM is issued with its order, then delivered; my eSIM shows both, installation on offer', async () => {
    const checkout = await buy();
    await stack.sandbox.control.advanceClock(2 * STEP_MS);
    expect(await seen(checkout)).toEqual(['ready', 'delivered']);
    const link = await checkout.page.post(
      `/v1/checkouts/${checkout.id}/manage-link`,
      {},
      { [CHECKOUT_SECRET_HEADER]: checkout.secret },
    );
    expect(link.status, link.text).toBe(201);
    const token = link.body.data.manageToken as string;
    const issued = EsimViewResponseSchema.parse((await myEsim(checkout.page, token)).body).data;
    expect(issued).toMatchObject({ state: 'issued', installed: false });
    await stack.sandbox.control.advanceClock(STEP_MS);
    const delivered = EsimViewResponseSchema.parse((await myEsim(checkout.page, token)).body).data;
    expect(delivered).toMatchObject({ state: 'delivered', installed: false });
    // What the network reports of the profile: on a device (downloaded, disabled) or not known.
    const cases = [
      ['unknown', false],
      ['downloaded', true],
      ['disabled', true],
    ] as const;
    for (const [profileState, installed] of cases) {
      await stack.sandbox.control.setEsim(delivered.esimId, { profileState, serviceState: 'unknown' });
      const view = EsimViewResponseSchema.parse((await myEsim(checkout.page, token)).body).data;
      expect(view, profileState).toMatchObject({ profileState, serviceState: 'unknown', installed });
      const again = await checkout.page.get('/v1/my-esim/installation', { 'X-Manage-Token': token });
      expect(again.status, profileState).toBe(installed ? 409 : 200);
    }
  });
});
