/**
 * The upstream goes down (connections refused) and comes back: the catalog is served stale meanwhile, quotes and
 * checkouts answer a retryable error (or accept the sale and place it later), nothing 500s, and everything
 * recovers by itself when the upstream returns.
 */

import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { ApiErrorEnvelopeSchema, CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  testConfig,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { type SwitchableProxy, startSwitchableProxy } from '../harness/switchable-proxy';

let sandbox: RunningSandbox;
let proxy: SwitchableProxy;
let bff: RunningBff;
const figures: Figure[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 200,
  });
  proxy = await startSwitchableProxy(sandbox.port);
  bff = await startBff(proxy.url, {
    sessionSecret: randomBytes(32),
    config: (url) => {
      const config = testConfig(url);
      const upstream = {
        baseUrl: url,
        apiKeyEnv: 'TEST_UPSTREAM_KEY',
        timeoutMs: 1_000,
        maxRetries: 1,
        rateLimitPerMinute: 100_000,
      };
      // Readiness is asked again 200 ms after its last answer (not 5 s): /readyz turns 200 soon after the recovery.
      return {
        ...config,
        readinessCacheMs: 200,
        widgets: config.widgets.map((widget) => ({ ...widget, upstream })),
      };
    },
  });
});
afterAll(async () => {
  recordFigures('upstream outage', figures);
  await bff?.server.close();
  await proxy?.close();
  await sandbox?.close();
});

function expectRetryable(answer: { status: number; body: unknown; headers: Headers }) {
  expect(answer.status).toBe(503);
  expect(ApiErrorEnvelopeSchema.parse(answer.body).error.code).toBe('upstream_unavailable');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('an upstream outage', () => {
  it('serves the catalog stale, answers quotes and checkouts retryably, and recovers', async () => {
    const page = await openWidget(bff.server.url, 'shop');
    const before = await page.get('/v1/destinations');
    expect(before.status).toBe(200);
    const code: string = before.body.data[0].code;
    const plans = await page.get(`/v1/destinations/${code}/plans`);
    const offerId: string = plans.body.data[0].offerId;
    const otherPlans = await page.get(`/v1/destinations/${before.body.data[1].code}/plans`);
    const otherOfferId: string = otherPlans.body.data[0].offerId;
    const heldQuote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
    expect(heldQuote.status).toBe(201);
    const payPage = await openWidget(bff.server.url, 'shop-pay');
    const payQuote = await payPage.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
    expect(payQuote.status).toBe(201);

    // The funding check read the partner's account within the last minute: it may serve that read while down.
    const account = await call(bff.server.url, '/v1/partner/account?widgetId=shop-pay', {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(account.status).toBe(200);

    await proxy.down();
    const downAt = Date.now();
    const catalog = bff.bff.widgets.get('shop')?.catalog;
    // A refresh during the outage fails; the snapshot stays and is marked stale.
    await expect(catalog?.refresh({ force: true })).rejects.toBeDefined();
    expect(catalog?.status().stale).toBe(true);
    const stale = await page.get('/v1/destinations');
    expect(stale.status).toBe(200);
    expect(stale.body.data).toEqual(before.body.data);
    const stalePlans = await page.get(`/v1/destinations/${code}/plans`);
    expect(stalePlans.status).toBe(200);
    figures.push([
      'catalog while the upstream is down',
      `served stale (${stale.body.data.length} destinations, 200)`,
    ]);

    // Quoting needs the upstream: a retryable refusal (another offer: the held one's live quote would come back).
    const quote = await page.post('/v1/quotes', { offerId: otherOfferId }, { 'Idempotency-Key': newKey() });
    expectRetryable(quote);
    figures.push([
      'quote while down',
      `${quote.status} upstream_unavailable, Retry-After ${quote.headers.get('retry-after')} s`,
    ]);

    // A checkout of a quote held before the outage: refused retryably, or accepted and placed after it.
    const checkoutKey = newKey();
    const checkoutBody = { quoteId: heldQuote.body.data.id, locale: 'en', termsAccepted: true };
    const checkout = await page.post('/v1/checkouts', checkoutBody, { 'Idempotency-Key': checkoutKey });
    let outcome: string;
    if (checkout.status === 201) {
      expect(checkout.body.data.status).toBe('placing');
      outcome = '201 placing (placed once the upstream is back)';
    } else {
      expectRetryable(checkout);
      outcome = `${checkout.status} upstream_unavailable, Retry-After ${checkout.headers.get('retry-after')} s`;
    }
    figures.push(['checkout while down', outcome]);

    // partner_confirm: the checkout needs no upstream but the account read of the last minute; the partner's
    // confirm is accepted and placed later.
    const payCheckout = await payPage.post(
      '/v1/checkouts',
      { quoteId: payQuote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(payCheckout.status).toBe(201);
    const confirmed = await call(
      bff.server.url,
      `/v1/partner/checkouts/${payCheckout.body.data.id}/confirm`,
      {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      },
    );
    let confirmOutcome: string;
    if (confirmed.status === 200) {
      expect(confirmed.body.data.status).toBe('placing');
      confirmOutcome = '200 placing (placed once the upstream is back)';
    } else {
      expectRetryable(confirmed);
      confirmOutcome = `${confirmed.status} upstream_unavailable`;
    }
    figures.push(['partner confirm while down', confirmOutcome]);
    // A status poll during the outage shows the last known status rather than failing.
    const polled = await payPage.get(`/v1/checkouts/${payCheckout.body.data.id}`, {
      [CHECKOUT_SECRET_HEADER]: payCheckout.body.data.clientSecret,
    });
    expect(polled.status).toBe(200);

    const ready = await fetch(`${bff.server.url}/readyz`);
    expect(ready.status).toBe(503);
    // Nothing logged as a server failure: an outage is expected weather, not a bug.
    expect(bff.logs.filter((line) => line.includes('"status":500'))).toEqual([]);

    await proxy.up();
    const outageMs = Date.now() - downAt;
    // Recovery: the same checkout request (retried with its key, as the widget does) completes, and quotes work.
    const retried = await eventually(async () => {
      const answer = await page.post('/v1/checkouts', checkoutBody, { 'Idempotency-Key': checkoutKey });
      return answer.status === 201 ? answer : undefined;
    });
    const { id, clientSecret } = retried.body.data;
    const placed = await eventually(async () => {
      const answer = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
      return answer.body.data.status === 'ready' ? answer.body.data : undefined;
    }, 20_000);
    expect(placed.status).toBe('ready');
    expect(await bff.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(id)).toHaveLength(1);
    if (confirmed.status !== 200) {
      const again = await call(bff.server.url, `/v1/partner/checkouts/${payCheckout.body.data.id}/confirm`, {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(again.status).toBe(200);
    }
    await eventually(async () => {
      const answer = await payPage.get(`/v1/checkouts/${payCheckout.body.data.id}`, {
        [CHECKOUT_SECRET_HEADER]: payCheckout.body.data.clientSecret,
      });
      return answer.body.data.status === 'ready' ? true : undefined;
    }, 20_000);
    expect(
      await bff.bff.widgets.get('shop-pay')?.upstream.findOrdersByExternalRef(payCheckout.body.data.id),
    ).toHaveLength(1);
    expect((await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() })).status).toBe(201);
    await catalog?.refresh({ force: true });
    expect(catalog?.status().stale).toBe(false);
    await eventually(
      async () => ((await fetch(`${bff.server.url}/readyz`)).status === 200 ? true : undefined),
      15_000,
    );
    figures.push([
      'after recovery',
      'both checkouts ready with 1 order each, quotes 201, catalog fresh, /readyz 200',
    ]);
    figures.push(['outage length', `${(outageMs / 1000).toFixed(1)} s`]);
  });
});
