/**
 * `direct` checkout in `live` spends the partner's prepaid balance on a browser's word, so it runs only with
 * the explicit opt-in and within the per-session and per-day spend caps; a checkout over a cap is refused
 * before anything is placed upstream.
 */
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newKey,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });

beforeAll(async () => {
  stack = await startStack({
    env: { LIVE_KEY: SANDBOX_KEYS.globetrotterLive },
    config: (url) => {
      const live = {
        displayName: 'Live Shop',
        environment: 'live' as const,
        upstream: { baseUrl: url, apiKeyEnv: 'LIVE_KEY' },
        allowedOrigins: [SHOP_ORIGIN],
        checkoutMode: 'direct' as const,
      };
      return {
        statusCacheMs: 0,
        widgets: [
          {
            ...live,
            id: 'live-roomy',
            limits: {
              directLiveOptIn: true,
              maxSpendPerSession: usd(10_000_000),
              maxSpendPerDay: usd(10_000_000),
            },
          },
          {
            ...live,
            id: 'live-session-cap',
            limits: { directLiveOptIn: true, maxSpendPerSession: usd(1), maxSpendPerDay: usd(10_000_000) },
          },
          {
            ...live,
            id: 'live-day-cap',
            limits: { directLiveOptIn: true, maxSpendPerSession: usd(10_000_000), maxSpendPerDay: usd(1) },
          },
        ],
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

async function tryCheckout(page: WidgetPage) {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  return await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
}

describe('direct checkout in live', () => {
  it('sells within the caps', async () => {
    const page = await openWidget(stack.server.url, 'live-roomy');
    expect(page.session.widget).toMatchObject({ environment: 'live', checkoutMode: 'direct' });
    const answer = await tryCheckout(page);
    expect(answer.status).toBe(201);
    const orders = await stack.bff.widgets
      .get('live-roomy')
      ?.upstream.findOrdersByExternalRef(answer.body.data.id);
    expect(orders).toHaveLength(1);
  });

  it.each([
    ['live-session-cap', 'session'],
    ['live-day-cap', 'day'],
  ])('refuses a checkout over the %s cap and places nothing', async (widgetId, cap) => {
    const page = await openWidget(stack.server.url, widgetId);
    const before = (await stack.sandbox.control.state()).environments.live?.orders;
    const answer = await tryCheckout(page);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toEqual({ code: 'order_limit_exceeded', params: { cap } });
    expect((await stack.sandbox.control.state()).environments.live?.orders).toBe(before);
  });
});
