/**
 * @module
 * Test support: checkouts made as a widget page makes them, on the BFF test stack (`@esim-embed/bff/testing`):
 * a session for the widget, a plan of the first country, a quote and a checkout.
 */

import type { Plan } from '@esim-embed/shared';
import { newKey, openWidget, type WidgetPage } from './stack';

/** A quote on `page` (a widget session) of the first plan of the catalog's first country; its id. Refused, it throws. */
export async function quoteOnPage(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  if (country === undefined) throw new Error(`no country in the catalog: ${destinations.text}`);
  const plans = await page.get(`/v1/destinations/${country.code}/plans`);
  const plan = (plans.body.data as Plan[])[0];
  if (plan === undefined) throw new Error(`no plan for ${country.code}: ${plans.text}`);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  if (quote.status !== 201) throw new Error(`quote refused: ${quote.text}`);
  return quote.body.data.id;
}

/**
 * A checkout on `page` of {@link quoteOnPage}'s quote, with the traveller's `email` when given: its id and the
 * client secret that reads it. A refused quote or checkout throws with the answer.
 */
export async function openCheckoutOnPage(
  page: WidgetPage,
  options: { email?: string } = {},
): Promise<{ id: string; clientSecret: string }> {
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: await quoteOnPage(page), locale: 'en', termsAccepted: true, ...options },
    { 'Idempotency-Key': newKey() },
  );
  if (checkout.status !== 201) throw new Error(`checkout refused: ${checkout.text}`);
  return { id: checkout.body.data.id, clientSecret: checkout.body.data.clientSecret };
}

/** The id of {@link openCheckoutOnPage}'s checkout. */
export async function checkoutOnPage(page: WidgetPage, options: { email?: string } = {}): Promise<string> {
  return (await openCheckoutOnPage(page, options)).id;
}

/**
 * A checkout of the test config's `shop-pay` (`partner_confirm`: awaiting payment) or `shop` (`direct`) widget,
 * with the traveller's `email` when given.
 */
export async function checkoutAsTraveller(
  bffUrl: string,
  widgetId: 'shop-pay' | 'shop',
  options: { email?: string } = {},
): Promise<string> {
  return await checkoutOnPage(await openWidget(bffUrl, widgetId), options);
}
