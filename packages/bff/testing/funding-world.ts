/**
 * @module
 * Test support for the funding tests (unpaid and payment holds): two BFF instances on one Redis sell through
 * widgets of two sandbox accounts, travellers told apart by `X-Forwarded-For` behind one trusted proxy. The
 * widget config they share, the cheapest plan's wholesale price as the upstream charges it, a checkout from one
 * address, and a partner call.
 */
import type { NonNegativeMoney } from '@esim-embed/shared';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { call, newKey, openWidget, SHOP_ORIGIN, type WidgetPage } from './stack';

/**
 * A widget of the funding tests on the sandbox at `sandboxUrl`: the upstream key in env `key`, its checkout mode
 * and partner secret env, the session and request limits opened wide (the holds' caps are what must refuse).
 */
export function fundingWidget(
  sandboxUrl: string,
  id: string,
  key: string,
  mode: 'direct' | 'partner_confirm',
  secretEnv = 'TEST_PARTNER_SECRET',
) {
  return {
    id,
    displayName: id,
    environment: 'test' as const,
    upstream: { baseUrl: sandboxUrl, apiKeyEnv: key, timeoutMs: 5_000 },
    allowedOrigins: [SHOP_ORIGIN],
    checkoutMode: mode,
    partnerSecretEnv: secretEnv,
    limits: { sessionsPerIpPerMinute: 10_000, checkoutsPerSession: 100, requestsPerSessionPerMinute: 10_000 },
  };
}

/** The cheapest plan `page`'s widget offers, and its wholesale price as the sandbox at `sandboxUrl` gives `key`. */
export async function cheapestPlan(
  sandboxUrl: string,
  page: WidgetPage,
  key: string,
): Promise<{ offerId: string; wholesale: number }> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const priced = await Promise.all(
    plans.body.data.map(async ({ offerId }: { offerId: string }) => {
      const answer = await fetch(`${sandboxUrl}/catalog/offers/${offerId}`, {
        headers: { 'X-Api-Key': key },
      });
      const offer = (await answer.json()) as { data: { price: NonNegativeMoney } };
      return { offerId, wholesale: offer.data.price.amountMinor };
    }),
  );
  return priced.sort((a, b) => a.wholesale - b.wholesale)[0] as { offerId: string; wholesale: number };
}

/** A quote and a checkout of `offerId` on `page` (the quote's refusal, when it is refused). */
export async function checkoutOn(page: WidgetPage, offerId: string) {
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  if (quote.status !== 201) return quote;
  return await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
}

/** A new session on `widgetId` of the BFF at `bffUrl` from `address`, a quote and a checkout of `offerId`. */
export async function checkoutFrom(
  bffUrl: string,
  widgetId: string,
  address: Record<string, string>,
  offerId: string,
) {
  return await checkoutOn(await openWidget(bffUrl, widgetId, SHOP_ORIGIN, address), offerId);
}

/** A partner API call to the BFF at `bffUrl` with `secret`: a GET, or a POST of `body`. */
export const partnerCallTo = (bffUrl: string, path: string, secret: string, body?: unknown) =>
  call(bffUrl, path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { [PARTNER_SECRET_HEADER]: secret },
    body,
  });
