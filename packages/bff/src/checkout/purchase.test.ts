/**
 * The whole purchase against the real sandbox over HTTP, in both checkout modes.
 */
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
} from '../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function firstPlan(page: Awaited<ReturnType<typeof openWidget>>) {
  const destinations = await page.get('/v1/destinations?locale=en');
  expect(destinations.status).toBe(200);
  const code = destinations.body.data[0].code;
  const plans = await page.get(`/v1/destinations/${code}/plans`);
  expect(plans.status).toBe(200);
  return plans.body.data[0];
}

describe('purchase', () => {
  it('direct: session → destinations → plans → quote → checkout → ready → installation', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    expect(page.session.widget).toMatchObject({
      widgetId: 'shop',
      checkoutMode: 'direct',
      environment: 'test',
    });
    const plan = await firstPlan(page);
    const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
    expect(quote.status).toBe(201);
    expect(quote.body.data.price).toEqual(plan.price);
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, email: 'traveller@example.com', locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const { id, clientSecret } = checkout.body.data;
    const ready = await eventually(async () => {
      const status = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
      expect(status.status).toBe(200);
      return status.body.data.status === 'ready' ? status.body.data : undefined;
    });
    expect(ready.amount).toEqual(plan.price);
    const installation = await page.get(`/v1/checkouts/${id}/installation`, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    expect(installation.status).toBe(200);
    expect(installation.headers.get('cache-control')).toContain('no-store');
    expect(installation.body.data.lpa).toMatch(/^LPA:1\$/);
    const orders = await stack.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(id);
    expect(orders).toHaveLength(1);
  });

  it('partner_confirm: awaits payment until the partner server confirms', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const plan = await firstPlan(page);
    const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'de', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    expect(checkout.body.data.status).toBe('awaiting_payment');
    const { id } = checkout.body.data;
    const upstream = stack.bff.widgets.get('shop-pay')?.upstream;
    expect(await upstream?.findOrdersByExternalRef(id)).toHaveLength(0);

    const partner = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
    const before = await call(stack.server.url, `/v1/partner/checkouts/${id}`, { headers: partner });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ status: 'awaiting_payment', externalRef: id, order: null });
    const confirmed = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: partner,
      body: { paymentReference: 'pay_123' },
    });
    expect(confirmed.status).toBe(200);
    expect(['provisioning', 'ready']).toContain(confirmed.body.data.status);
    expect(confirmed.body.data.paymentReference).toBe('pay_123');
    const again = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: partner,
    });
    expect(again.status).toBe(200);
    expect(await upstream?.findOrdersByExternalRef(id)).toHaveLength(1);
  });
});
