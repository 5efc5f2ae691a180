/**
 * The outcomes a widget must handle, raised by real conditions in the sandbox: an expired quote, a payment
 * window that ran out, a price that changed between quote and order, and a provisioning failure.
 *
 * The sandbox and the BFF keep time together on clocks the test moves: a quote or a payment window runs out
 * when the test moves both past it.
 */
import { SANDBOX_ACCOUNTS } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testClock,
  type WidgetPage,
} from '../../testing/stack';

/** The BFF's clock; the sandbox's is moved with it. */
const clock = testClock();
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sandbox: { quoteTtlSeconds: 3 }, bffOptions: { now: clock.now } });
});
afterAll(async () => {
  await stack?.close();
});

async function quote(page: WidgetPage) {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const answer = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(answer.status).toBe(201);
  return answer.body.data as { id: string; expiresAt: string };
}
const checkout = (page: WidgetPage, quoteId: string) =>
  page.post('/v1/checkouts', { quoteId, locale: 'en', termsAccepted: true }, { 'Idempotency-Key': newKey() });
/** Time passes for the BFF and the sandbox alike until `instant` (ms since the epoch, on their clocks). */
async function passUntil(instant: number) {
  const ms = Math.max(0, instant - clock.now());
  clock.advance(ms);
  await stack.sandbox.control.advanceClock(ms);
}

describe('sale outcomes', () => {
  it('refuses to check out an expired quote with quote_expired', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const held = await quote(page);
    await passUntil(Date.parse(held.expiresAt) + 50);
    const answer = await checkout(page, held.id);
    expect(answer.status).toBe(410);
    expect(answer.body.error.code).toBe('quote_expired');
  });

  it('expires a partner_confirm checkout whose payment window ran out, and will not confirm it', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const created = (await checkout(page, (await quote(page)).id)).body.data;
    expect(Date.parse(created.expiresAt)).toBeLessThanOrEqual(clock.now() + 3_500);
    const awaiting = await page.get(`/v1/checkouts/${created.id}`, {
      [CHECKOUT_SECRET_HEADER]: created.clientSecret,
    });
    expect(awaiting.body.data.status).toBe('awaiting_payment');
    await passUntil(Date.parse(created.expiresAt) + 50);
    const status = await page.get(`/v1/checkouts/${created.id}`, {
      [CHECKOUT_SECRET_HEADER]: created.clientSecret,
    });
    expect(status.body.data.status).toBe('expired');
    const confirm = await call(stack.server.url, `/v1/partner/checkouts/${created.id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirm.body.error.code).toBe('invalid_transition');
  });

  it('answers a price change between quote and order with price_changed, and sells nothing', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const held = await quote(page);
    await stack.sandbox.control.bumpPricing();
    const answer = await checkout(page, held.id);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('price_changed');
    expect(answer.body.error.params.retryable).toBe(true);
    const checkoutId: string = answer.body.error.params.checkoutId;
    const orders = await stack.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(checkoutId);
    expect(orders).toHaveLength(0);
    // A new quote sells at the new price.
    const again = await checkout(page, (await quote(page)).id);
    expect(again.status).toBe(201);
  });

  it('mirrors a provisioning failure of the upstream order', async () => {
    await stack.sandbox.control.armScenario({
      accountId: SANDBOX_ACCOUNTS.globetrotter,
      scenario: 'provisioning_failed',
    });
    const page = await openWidget(stack.server.url, 'shop');
    const created = (await checkout(page, (await quote(page)).id)).body.data;
    const failed = await eventually(async () => {
      const status = await page.get(`/v1/checkouts/${created.id}`, {
        [CHECKOUT_SECRET_HEADER]: created.clientSecret,
      });
      return status.body.data.status === 'failed' ? status.body.data : undefined;
    });
    expect(failed.failure).toEqual({ code: 'provisioning_failed', retryable: true });
  });
});
