/**
 * Operating the BFF over real HTTP: a purchase (partner_confirm, with its webhook) through the BFF in front of
 * the real sandbox, then `/metrics` scraped from the operations listener must show the purchase's requests by
 * route pattern, its upstream calls, the webhook delivery and the checkout gauges; with tracing on, a tiny OTLP
 * receiver gets the request spans with their upstream child spans, the sandbox (behind a recording relay)
 * receives the `traceparent` of those spans, and the partner's webhook POST carries one. With both off, nothing
 * of it exists: no `/metrics`, no `traceparent`.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../testing/otlp-receiver';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  testConfig,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import { postingWebhooksTo, startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createMemoryStore } from '../store/memory-store';
import type { Tracing } from './tracing';
import { startTracing, tracingSettingsFrom } from './tracing-start';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let sandbox: RunningSandbox;
let relay: TestRelay;
let otlp: OtlpReceiver;
let receiver: WebhookReceiver;
let observed: RunningBff;
let tracing: Tracing | null;

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  relay = await startTestRelay(sandbox.url);
  otlp = await startOtlpReceiver();
  receiver = await startReceiver();
  tracing = await startTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_SERVICE_NAME: 'bff-under-test',
  });
  observed = await startBff(relay.url, {
    sessionSecret: randomBytes(32),
    config: (upstreamUrl) =>
      postingWebhooksTo(
        testConfig(upstreamUrl, { checkoutWatchSeconds: 1 }),
        receiver.url,
        (widget) => widget.id === 'shop-pay',
      ),
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    bffOptions: { webhooks: { intervalMs: 25 }, observability: { metrics: true, tracing } },
  });
});
afterAll(async () => {
  await observed?.server.close();
  await Promise.all([relay?.close(), otlp?.close(), receiver?.close()]);
  await sandbox?.close();
});

/** One sample of the Prometheus text: the value of `name` with exactly these labels (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = (match[2] ?? '')
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (found === wanted) return Number(match[3]);
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const answer = await call(observed.operations?.url ?? 'http://operations.invalid', '/metrics');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/plain');
  return answer.text;
}

/** A partner_confirm purchase: quote, checkout, the partner's confirm, ready, and its webhooks delivered. */
async function purchase() {
  const page = await openWidget(observed.server.url, 'shop-pay');
  const destinations = await page.get('/v1/destinations');
  const country = destinations.body.data.find(
    (destination: { kind: string }) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country.code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status).toBe(201);
  const { id, clientSecret } = checkout.body.data;
  // Waiting for the payment: the state gauges see it from the store.
  const waiting = await scrape();
  expect(sample(waiting, 'bff_checkouts_moving', { status: 'awaiting_payment' })).toBeGreaterThanOrEqual(1);
  expect(sample(waiting, 'bff_checkout_oldest_age_seconds', { status: 'awaiting_payment' })).toBeGreaterThan(
    0,
  );

  const confirmed = await call(observed.server.url, `/v1/partner/checkouts/${id}/confirm`, {
    method: 'POST',
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
    body: { paymentReference: 'pay_metrics' },
  });
  expect(confirmed.status).toBe(200);
  await eventually(async () => {
    const status = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
    return status.body.data.status === 'ready' ? true : undefined;
  });
  await eventually(async () =>
    receiver.received.some(
      (delivery) => delivery.body.includes(id) && delivery.body.includes('checkout.completed'),
    )
      ? true
      : undefined,
  );
  return { checkoutId: id as string, quoteId: quote.body.data.id as string };
}

let bought: Awaited<ReturnType<typeof purchase>>;

describe('metrics on the operations listener', () => {
  it('after a purchase: its requests by route pattern, its upstream calls, its webhook and the checkout gauges', async () => {
    bought = await purchase();
    // The webhook was delivered; the queue empties once the delivery is written.
    const text = await eventually(async () => {
      const scraped = await scrape();
      return sample(scraped, 'bff_webhook_queue_depth') === 0 ? scraped : undefined;
    });
    const requests = (route: string, method: string, status_class = '2xx') =>
      sample(text, 'bff_http_request_duration_seconds_count', { route, method, status_class });
    expect(requests('/v1/sessions', 'POST')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/destinations', 'GET')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/destinations/{code}/plans', 'GET')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/quotes', 'POST')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/checkouts', 'POST')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/checkouts/{id}', 'GET')).toBeGreaterThanOrEqual(1);
    expect(requests('/v1/partner/checkouts/{id}/confirm', 'POST')).toBeGreaterThanOrEqual(1);
    // Route patterns, never raw paths: no id becomes a label.
    expect(text).not.toContain(bought.checkoutId);
    expect(text).not.toContain(bought.quoteId);

    const upstream = (operation: string) =>
      sample(text, 'bff_upstream_request_duration_seconds_count', { operation, outcome: 'ok' });
    expect(upstream('createQuote')).toBeGreaterThanOrEqual(1);
    expect(upstream('createOrder')).toBeGreaterThanOrEqual(1);
    expect(upstream('getOrder')).toBeGreaterThanOrEqual(1);

    expect(
      sample(text, 'bff_webhook_attempts_total', { type: 'checkout.completed', outcome: 'delivered' }),
    ).toBe(1);
    expect(sample(text, 'bff_webhook_queue_oldest_age_seconds')).toBe(0);
    expect(
      sample(text, 'bff_checkout_transitions_total', { status: 'awaiting_payment' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'bff_checkout_transitions_total', { status: 'ready' })).toBeGreaterThanOrEqual(1);
    for (const status of ['awaiting_payment', 'placing', 'provisioning']) {
      expect(sample(text, 'bff_checkouts_moving', { status })).toBeTypeOf('number');
    }
    expect(text).toContain('# TYPE bff_store_errors_total counter');
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('counts a refusal under its route, a request for no route under none, and is not on the public port', async () => {
    const refused = await call(observed.server.url, '/v1/checkouts/chk_nope', {
      headers: { Origin: 'https://shop.example' },
    });
    expect(refused.status).toBe(401);
    const publicMetrics = await call(observed.server.url, '/metrics');
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.body.error.code).toBe('not_found');
    const text = await scrape();
    expect(
      sample(text, 'bff_http_request_duration_seconds_count', {
        route: '/v1/checkouts/{id}',
        method: 'GET',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'bff_http_request_duration_seconds_count', {
        route: 'none',
        method: 'GET',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    const health = await call(observed.operations?.url ?? '', '/healthz');
    expect(health.body).toEqual({ status: 'ok' });
  });

  it('counts public catalog reads under their route, the ones served from kept bytes before the app too', async () => {
    const current = await call(observed.server.url, '/v1/catalog/shop');
    const destinations = `${current.body.data.path}/en/destinations`;
    const route = '/v1/catalog/{widgetId}/{version}/{locale}/destinations';
    const count = async () =>
      sample(await scrape(), 'bff_http_request_duration_seconds_count', {
        route,
        method: 'GET',
        status_class: '2xx',
      }) ?? 0;
    const before = await count();
    for (let read = 0; read < 3; read += 1) {
      expect((await call(observed.server.url, destinations)).status).toBe(200);
    }
    // The first read is the app's (and kept); the next two are written by the answer cache.
    expect(observed.bff.answers.size).toBeGreaterThanOrEqual(1);
    expect((await count()) - before).toBe(3);
  });
});

describe('several instances on one store', () => {
  it('each reports the shared state gauges: a checkout made on one is seen moving from the other', async () => {
    const store = createMemoryStore();
    const sessionSecret = randomBytes(32);
    const options = {
      sessionSecret,
      store,
      bffOptions: { startWorkers: false, observability: { metrics: true } },
    };
    const [one, two] = [await startBff(relay.url, options), await startBff(relay.url, options)];
    try {
      const page = await openWidget(one.server.url, 'shop-pay');
      const destinations = await page.get('/v1/destinations');
      const code = destinations.body.data.find(
        (destination: { kind: string }) => destination.kind === 'country',
      ).code;
      const plans = await page.get(`/v1/destinations/${code}/plans`);
      const quote = await page.post(
        '/v1/quotes',
        { offerId: plans.body.data[0].offerId },
        { 'Idempotency-Key': newKey() },
      );
      const checkout = await page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': newKey() },
      );
      expect(checkout.status).toBe(201);
      const scraped = await Promise.all(
        [one, two].map(async (bff) => (await call(bff.operations?.url ?? '', '/metrics')).text),
      );
      for (const text of scraped) {
        expect(sample(text, 'bff_checkouts_moving', { status: 'awaiting_payment' })).toBe(1);
      }
      // Counters are each instance's own: only the one that answered counted the checkout.
      const created = scraped.map((text) =>
        sample(text, 'bff_http_request_duration_seconds_count', {
          route: '/v1/checkouts',
          method: 'POST',
          status_class: '2xx',
        }),
      );
      expect(created).toEqual([1, undefined]);
    } finally {
      await one.server.close();
      await two.server.close();
    }
  });
});

describe('traces', () => {
  it('a request span per request, upstream child spans, traceparent to the sandbox and on the webhook', async () => {
    if (bought === undefined) bought = await purchase();
    // The spans go in batches: export the ended ones now.
    await tracing?.flush();
    const spans = otlp.spans;
    expect(spans.every((span) => span.serviceName === 'bff-under-test')).toBe(true);
    // The confirm request's span, and the order placed under it.
    const confirm = spans.find((span) => span.name === 'POST /v1/partner/checkouts/{id}/confirm');
    expect(confirm?.kind).toBe(2);
    expect(confirm?.attributes['http.route']).toBe('/v1/partner/checkouts/{id}/confirm');
    const createOrder = spans.find((span) => span.name === 'upstream createOrder');
    expect(createOrder).toMatchObject({ kind: 3, traceId: confirm?.traceId, parentSpanId: confirm?.spanId });
    const quoteRequest = spans.find((span) => span.name === 'POST /v1/quotes');
    const createQuote = spans.find((span) => span.name === 'upstream createQuote');
    expect(createQuote).toMatchObject({ traceId: quoteRequest?.traceId, parentSpanId: quoteRequest?.spanId });

    // The sandbox received each call's traceparent: the trace of the request, the id of the upstream span.
    const ordersPost = relay.requests.find(
      (request) => request.method === 'POST' && request.path.endsWith('/orders'),
    );
    const [, traceId, parentId] = TRACEPARENT.exec(String(ordersPost?.headers.traceparent)) ?? [];
    expect(traceId).toBe(confirm?.traceId);
    expect(parentId).toBe(createOrder?.spanId);

    // The partner's webhook POST carried the trace of its delivery span.
    const delivery = receiver.received.find((received) => received.body.includes(bought.checkoutId));
    const [, webhookTrace, webhookSpan] = TRACEPARENT.exec(String(delivery?.headers.traceparent)) ?? [];
    expect(webhookTrace).toBeDefined();
    expect(spans.find((span) => span.spanId === webhookSpan)).toMatchObject({
      traceId: webhookTrace,
      kind: 3,
      attributes: { 'esim.outcome': 'delivered' },
    });
  });

  it('a server span for a public catalog read answered from kept bytes before the app too', async () => {
    const current = await call(observed.server.url, '/v1/catalog/shop');
    const destinations = `${current.body.data.path}/en/destinations`;
    const name = 'GET /v1/catalog/{widgetId}/{version}/{locale}/destinations';
    await tracing?.flush();
    const before = otlp.spans.filter((span) => span.name === name).length;
    for (let read = 0; read < 3; read += 1) {
      expect((await call(observed.server.url, destinations)).status).toBe(200);
    }
    await tracing?.flush();
    const spans = otlp.spans.filter((span) => span.name === name).slice(before);
    expect(spans).toHaveLength(3);
    const kept = spans.filter((span) => span.attributes['esim.kept_answer'] === true);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const span of kept) {
      expect(span).toMatchObject({
        kind: 2,
        attributes: { 'http.route': '/v1/catalog/{widgetId}/{version}/{locale}/destinations' },
      });
      expect(span.attributes['http.response.status_code']).toBe(200);
    }
  });
});

describe('with metrics and tracing off (the default)', () => {
  it('serves no /metrics, keeps no registry and sends no traceparent', async () => {
    const plain = await startBff(relay.url, { sessionSecret: randomBytes(32) });
    try {
      const seen = relay.requests.length;
      const page = await openWidget(plain.server.url, 'shop');
      await page.get('/v1/destinations');
      await plain.bff.widgets.get('shop')?.upstream.getCapabilities();
      expect(relay.requests.length).toBeGreaterThan(seen);
      expect(relay.requests.slice(seen).some((request) => 'traceparent' in request.headers)).toBe(false);
      expect(plain.bff.metrics).toBeNull();
      expect(plain.operations).toBeNull();
      expect((await call(plain.server.url, '/metrics')).status).toBe(404);
    } finally {
      await plain.server.close();
    }
  });
});

describe('tracing settings from the standard variables', () => {
  it('is off unless an exporter or an endpoint is set, and strict about what it cannot do', () => {
    expect(tracingSettingsFrom({})).toBeNull();
    expect(
      tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBeNull();
    expect(tracingSettingsFrom({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeNull();
    expect(tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
      tracesEndpoint: 'http://localhost:4318/v1/traces',
      serviceName: 'esim-embed-bff',
    });
    expect(
      tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318/' })?.tracesEndpoint,
    ).toBe('https://collector:4318/v1/traces');
    expect(
      tracingSettingsFrom({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/custom',
        OTEL_SERVICE_NAME: 'edge',
      }),
    ).toEqual({ tracesEndpoint: 'http://c/custom', serviceName: 'edge' });
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow('is not one of otlp, none');
    expect(() =>
      tracingSettingsFrom({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
    ).toThrow('4318');
    expect(() => tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'not an http(s) URL',
    );
  });
});
