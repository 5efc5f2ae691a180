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
  testConfig,
} from '../../testing/stack';

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
    const retried = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: partner,
      body: { paymentReference: 'pay_123' },
    });
    expect(retried.status).toBe(200);
    // A second charge confirming the paid checkout is refused: the partner must refund it, not keep it.
    const surplus = await call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
      method: 'POST',
      headers: partner,
      body: { paymentReference: 'pay_456' },
    });
    expect(surplus.status).toBe(409);
    expect(surplus.body.error).toMatchObject({
      code: 'invalid_transition',
      params: { reason: 'paid_by_another_payment' },
    });
    expect(
      (await call(stack.server.url, `/v1/partner/checkouts/${id}`, { headers: partner })).body.data,
    ).toMatchObject({ paymentReference: 'pay_123' });
    expect(await upstream?.findOrdersByExternalRef(id)).toHaveLength(1);
  });
});

describe('status polling and catalog caching', () => {
  it('answers 304 to a matching If-None-Match on destinations and plans', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const destinations = await page.get('/v1/destinations?locale=de');
    const etag = destinations.headers.get('etag') as string;
    // A well-formed entity tag; weak when the answer was compressed for this request (the bytes differ per coding).
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await page.get('/v1/destinations?locale=de', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const code = destinations.body.data[0].code;
    const plans = await page.get(`/v1/destinations/${code}/plans`);
    const plansAgain = await page.get(`/v1/destinations/${code}/plans`, {
      'If-None-Match': plans.headers.get('etag') as string,
    });
    expect(plansAgain.status).toBe(304);
    const otherLocale = await page.get('/v1/destinations?locale=fr', { 'If-None-Match': etag });
    expect(otherLocale.status).toBe(200);
  });

  it('serves many polls of one checkout from one upstream read while the status is fresh', async () => {
    const cached = await startStack({
      sandbox: { stepDelaysMs: { provisioning: 60_000, delivery: 60_000, completion: 60_000 } },
      config: (url) => ({ ...testConfig(url), statusCacheMs: 60_000 }),
    });
    try {
      const page = await openWidget(cached.server.url, 'shop');
      const plan = await firstPlan(page);
      const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
      const created = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      const { id, clientSecret } = created.body.data;
      const readsBefore = cached.logs.filter((line) => line.includes('"operation":"getOrder"')).length;
      const polls = await Promise.all(
        Array.from({ length: 20 }, () =>
          page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret }),
        ),
      );
      for (const poll of polls) expect(poll.body.data.status).toBe('provisioning');
      const readsAfter = cached.logs.filter((line) => line.includes('"operation":"getOrder"')).length;
      expect(readsAfter - readsBefore).toBe(0);
      // Upstream lines carry the BFF's request id and the widget id, so one request can be followed.
      const upstreamLine = cached.logs
        .map((line) => JSON.parse(line))
        .find((line) => line.operation === 'createOrder');
      expect(upstreamLine).toMatchObject({ requestId: expect.stringMatching(/^req_/), widgetId: 'shop' });
      expect(upstreamLine.upstreamRequestId).toEqual(expect.any(String));
      // The access-log line of that request names the upstream requests it caused.
      const accessLine = cached.logs
        .map((line) => JSON.parse(line))
        .find((line) => line.message === 'request' && line.requestId === upstreamLine.requestId);
      expect(accessLine).toMatchObject({
        method: 'POST',
        path: '/v1/checkouts',
        status: 201,
        widgetId: 'shop',
      });
      expect(accessLine.upstreamRequestIds).toContain(upstreamLine.upstreamRequestId);
      expect(accessLine.durationMs).toEqual(expect.any(Number));
    } finally {
      await cached.close();
    }
  });
});
