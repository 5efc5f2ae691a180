/**
 * Buying a top-up through the same quote → checkout → (partner confirm) → order machinery, against the real
 * sandbox over HTTP: the data lands on the eSIM, the upstream order is of kind `top_up`, and double submits
 * never make a second order.
 */
import {
  CHECKOUT_SECRET_HEADER,
  EsimViewResponseSchema,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  QuoteResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim, myEsim, untilReady } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const buyInNewSession = async () => await buyEsim(await openWidget(stack.server.url, 'shop'));

async function topUpQuote(page: WidgetPage, esim: BoughtEsim, manageToken = esim.manageToken) {
  const view = EsimViewResponseSchema.parse((await myEsim(page, manageToken)).body).data;
  const offer = view.topUp.offers[0];
  if (offer === undefined) throw new Error('no top-up offer');
  const quote = await page.post(
    '/v1/quotes',
    { offerId: offer.offerId, esimId: esim.esimId },
    { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: manageToken },
  );
  expect(quote.status).toBe(201);
  return { view, offer, quote: QuoteResponseSchema.parse(quote.body).data };
}

const upstreamOrders = async (checkoutId: string) =>
  (await stack.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(checkoutId)) ?? [];

describe('top-up', () => {
  it('direct: quote with esimId → checkout of kind top_up → ready, and the data is on the eSIM', async () => {
    const esim = await buyInNewSession();
    const page = await openWidget(stack.server.url, 'shop');
    const { view, offer, quote } = await topUpQuote(page, esim);
    expect(quote).toMatchObject({ kind: 'top_up', esimId: esim.esimId, price: offer.price });
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken },
    );
    expect(checkout.status).toBe(201);
    expect(checkout.body.data).toMatchObject({ kind: 'top_up', esimId: esim.esimId, amount: offer.price });
    const ready = await untilReady(page, checkout.body.data.id, checkout.body.data.clientSecret);
    expect(ready.kind).toBe('top_up');
    const after = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
    expect(after.usage.totalMb).toBe((view.usage.totalMb ?? 0) + (offer.dataMb ?? 0));
    const orders = await upstreamOrders(checkout.body.data.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ kind: 'top_up', targetEsimId: esim.esimId });
    // A top-up has no installation of its own.
    const installation = await page.get(`/v1/checkouts/${checkout.body.data.id}/installation`, {
      [CHECKOUT_SECRET_HEADER]: checkout.body.data.clientSecret,
    });
    expect(installation.status).toBe(404);
  });

  it('partner_confirm: the top-up waits for the partner server, then is ordered once', async () => {
    const esim = await buyInNewSession();
    // The partner mints a manage link for its pay-first widget (same upstream account).
    const link = await call(stack.server.url, `/v1/partner/esims/${esim.esimId}/manage-links`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: { widgetId: 'shop-pay' },
    });
    expect(link.status).toBe(201);
    const token: string = link.body.data.manageToken;
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { quote } = await topUpQuote(page, esim, token);
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: token },
    );
    expect(checkout.status).toBe(201);
    expect(checkout.body.data).toMatchObject({ status: 'awaiting_payment', kind: 'top_up' });
    const id: string = checkout.body.data.id;
    expect(await upstreamOrders(id)).toHaveLength(0);
    const confirms = await Promise.all(
      [1, 2, 3].map(() =>
        call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
          method: 'POST',
          headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
          body: {},
        }),
      ),
    );
    expect(confirms.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    await untilReady(page, id, checkout.body.data.clientSecret);
    const orders = await upstreamOrders(id);
    expect(orders).toHaveLength(1);
    expect(orders[0]?.kind).toBe('top_up');
  });

  it('double submits of one top-up make one checkout and one order', async () => {
    const esim = await buyInNewSession();
    const page = await openWidget(stack.server.url, 'shop');
    const { quote, view, offer } = await topUpQuote(page, esim);
    const body = { quoteId: quote.id, locale: 'en', termsAccepted: true };
    const sameKey = newKey();
    const headers = (key: string) => ({ 'Idempotency-Key': key, [MANAGE_TOKEN_HEADER]: esim.manageToken });
    // The same click twice (same key) and a second click with a new key, all at once.
    const answers = await Promise.all([
      page.post('/v1/checkouts', body, headers(sameKey)),
      page.post('/v1/checkouts', body, headers(sameKey)),
      page.post('/v1/checkouts', body, headers(newKey())),
    ]);
    const created = answers.filter((answer) => answer.status === 201);
    const ids = new Set(created.map((answer) => answer.body.data.id as string));
    expect(ids.size).toBe(1);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(['quote_consumed', 'idempotency_conflict']).toContain(refused.body.error.code);
    }
    const [id] = [...ids] as [string];
    await eventually(async () => ((await upstreamOrders(id)).length > 0 ? true : undefined));
    expect(await upstreamOrders(id)).toHaveLength(1);
    await untilReady(page, id, created[0]?.body.data.clientSecret);
    // The data was added once, not once per click.
    const after = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
    expect(after.usage.totalMb).toBe((view.usage.totalMb ?? 0) + (offer.dataMb ?? 0));
  });

  it('refuses a top-up without the manage token of that eSIM', async () => {
    const esim = await buyInNewSession();
    const other = await buyInNewSession();
    const page = await openWidget(stack.server.url, 'shop');
    const view = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
    const offerId = view.topUp.offers[0]?.offerId;
    const missing = await page.post(
      '/v1/quotes',
      { offerId, esimId: esim.esimId },
      { 'Idempotency-Key': newKey() },
    );
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('widget_session_invalid');
    const foreign = await page.post(
      '/v1/quotes',
      { offerId, esimId: esim.esimId },
      { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: other.manageToken },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('esim_not_found');
  });
});
