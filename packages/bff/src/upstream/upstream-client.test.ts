import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import { createLogger } from '../logger';
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from './upstream-client';
import { UpstreamError } from './upstream-error';
import { acquireUpstreamPool } from './upstream-pool';

const apiKey = SANDBOX_KEYS.globetrotter;
const logLines: string[] = [];
const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) });

let sandbox: RunningSandbox;
let relay: TestRelay;
const clients: UpstreamClient[] = [];

function client(options: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  const created = createUpstreamClient({
    baseUrl: relay.url,
    apiKey,
    logger,
    random: () => 0.5,
    retry: { baseDelayMs: 20, maxDelayMs: 100, inFlightDelayMs: 100 },
    ...options,
  });
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

/** Requests the relay forwarded to `path` (without query) since `from`. */
function forwarded(from: number, method: string, path: string) {
  return relay.requests.slice(from).filter((r) => r.method === method && r.path.split('?')[0] === path);
}

async function quoteFor(upstream: UpstreamClient, key: string) {
  const offers = await upstream.listOffers({ limit: 1 });
  const offer = offers.data[0];
  if (!offer) throw new Error('the sandbox sells nothing');
  return upstream.createQuote({ offerId: offer.id }, { idempotencyKey: key });
}

beforeAll(async () => {
  sandbox = await startSandbox({
    faultInjection: true,
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
  });
  relay = await startTestRelay(sandbox.url);
});

afterEach(async () => {
  relay.hooks = {};
  await sandbox.control.clearFaults();
  await sandbox.control.setRateLimit(apiKey, null);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await relay?.close();
  await sandbox?.close();
});

describe('upstream client against the sandbox', () => {
  it('reads with X-Api-Key and returns parsed pages and resources', async () => {
    const upstream = client();
    const from = relay.requests.length;
    const page = await upstream.listProducts({ limit: 3 });
    expect(page.data).toHaveLength(3);
    expect(page.meta).toMatchObject({ hasMore: true, syncMode: 'full_snapshot' });
    const capabilities = await upstream.getCapabilities();
    expect(capabilities.settlement).toMatchObject({ currency: 'USD', wholeRubOnly: false });
    const account = await upstream.getAccount();
    expect(account.brand.displayName).toBe('Globetrotter');
    const offer = await upstream.getOffer((await upstream.listOffers({ limit: 1 })).data[0]?.id ?? '');
    expect(offer.recommendedRetail.amountMinor).toBeGreaterThan(0);
    for (const request of relay.requests.slice(from)) {
      expect(request.headers['x-api-key']).toBe(apiKey);
      expect(request.headers['idempotency-key']).toBeUndefined();
    }
  });

  it('maps upstream errors to their contract code with the upstream request id', async () => {
    const upstream = client();
    const notFound = await failure(upstream.getOrder('ord_missing'));
    expect(notFound).toMatchObject({ code: 'order_not_found', status: 404, upstreamStatus: 404 });
    expect(notFound.upstreamRequestId).toMatch(/.+/);
    expect(notFound.params).toEqual({ orderId: 'ord_missing' });
    expect(logLines.some((line) => line.includes(notFound.upstreamRequestId ?? '?'))).toBe(true);

    // A bad credential is the BFF's problem, never shown to a browser as `unauthorized`.
    const badKey = client({ apiKey: 'sk_test_wrong_key_000000' });
    const refused = await failure(badKey.getCapabilities());
    expect(refused).toMatchObject({
      code: 'widget_misconfigured',
      status: 503,
      upstreamCode: 'unauthorized',
    });
  });

  it('retries a read through injected 5xx answers and gives up as upstream_unavailable', async () => {
    const upstream = client({ maxRetries: 2 });
    await sandbox.control.setFaults([{ kind: 'error', path: '/capabilities', status: 500, times: 2 }]);
    let from = relay.requests.length;
    await expect(upstream.getCapabilities()).resolves.toMatchObject({ environment: 'test' });
    expect(forwarded(from, 'GET', '/capabilities')).toHaveLength(3);

    await sandbox.control.setFaults([{ kind: 'error', path: '/capabilities', status: 502, times: 5 }]);
    from = relay.requests.length;
    const error = await failure(upstream.getCapabilities());
    expect(error).toMatchObject({ code: 'upstream_unavailable', status: 503, upstreamStatus: 502 });
    expect(forwarded(from, 'GET', '/capabilities')).toHaveLength(3);
  });

  it('times out a slow attempt and retries it; a dropped connection is retried too', async () => {
    const upstream = client({ timeoutMs: 250 });
    await sandbox.control.setFaults([
      { kind: 'latency', path: '/account', latencyMs: 1_000, times: 1 },
      { kind: 'drop', path: '/capabilities', times: 1 },
    ]);
    const from = relay.requests.length;
    const started = performance.now();
    await expect(upstream.getAccount()).resolves.toMatchObject({ name: expect.any(String) });
    expect(performance.now() - started).toBeLessThan(900);
    expect(forwarded(from, 'GET', '/account')).toHaveLength(2);
    await expect(upstream.getCapabilities()).resolves.toMatchObject({ environment: 'test' });
    expect(forwarded(from, 'GET', '/capabilities')).toHaveLength(2);

    await sandbox.control.setFaults([{ kind: 'latency', path: '/account', latencyMs: 1_000 }]);
    const error = await failure(client({ timeoutMs: 100, maxRetries: 1 }).getAccount());
    expect(error).toMatchObject({ code: 'upstream_unavailable', upstreamStatus: null });
  });

  it('honours Retry-After, and fails at once with the hint when it is too long', async () => {
    // The pauses the client asks for are noted, not waited out.
    const pauses: number[] = [];
    const upstream = client({
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    // The injected 503 says Retry-After: 1; the backoff alone would wait a few ms.
    await sandbox.control.setFaults([{ kind: 'error', path: '/capabilities', status: 503, times: 1 }]);
    await upstream.getCapabilities();
    expect(pauses).toEqual([1_000]);

    await sandbox.control.setRateLimit(apiKey, 1);
    const limited = client({ retry: { maxRetryAfterMs: 500 } });
    // One request per minute: the second in the same window is refused (a window may roll over between
    // two calls, hence a few tries).
    let error: UpstreamError | undefined;
    let from = 0;
    let before = 0;
    for (let i = 0; i < 3 && !error; i += 1) {
      from = relay.requests.length;
      before = performance.now();
      error = await limited.getAccount().then(
        () => undefined,
        (caught: unknown) => caught as UpstreamError,
      );
    }
    if (!error) throw new Error('the rate limit never refused');
    // Waiting out the hint would take its whole second at least.
    expect(performance.now() - before).toBeLessThan(900);
    expect(error).toMatchObject({
      code: 'rate_limited',
      upstreamCode: 'rate_limited',
      upstreamStatus: 429,
    });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(forwarded(from, 'GET', '/account')).toHaveLength(1);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const upstream = client();
    await sandbox.control.setFaults([
      { kind: 'error', method: 'POST', path: '/delivery-links/*', status: 503, times: 3 },
    ]);
    const from = relay.requests.length;
    const error = await failure(upstream.revokeDeliveryLink('dl_any'));
    expect(error.code).toBe('upstream_unavailable');
    expect(forwarded(from, 'POST', '/delivery-links/dl_any/revoke')).toHaveLength(1);
    const state = await sandbox.control.state();
    expect(state.faults[0]?.times).toBe(2);
  });

  it('retries a create with its Idempotency-Key, and a lost answer yields exactly one order', async () => {
    const upstream = client();
    await sandbox.control.setFaults([
      { kind: 'error', method: 'POST', path: '/quotes', status: 500, times: 1 },
    ]);
    let from = relay.requests.length;
    const quote = await quoteFor(upstream, 'quote-retry-1');
    const quoteRequests = forwarded(from, 'POST', '/quotes');
    expect(quoteRequests).toHaveLength(2);
    expect(quoteRequests.map((r) => r.headers['idempotency-key'])).toEqual([
      'quote-retry-1',
      'quote-retry-1',
    ]);

    // The order is committed upstream, then the connection drops before the answer.
    await sandbox.control.setFaults([
      { kind: 'drop_after_commit', method: 'POST', path: '/orders', times: 1 },
    ]);
    from = relay.requests.length;
    const externalRef = `chk-drop-${Date.now()}`;
    const order = await upstream.createOrder(
      { quoteId: quote.id, externalRef },
      { idempotencyKey: `order:${externalRef}` },
    );
    expect(forwarded(from, 'POST', '/orders')).toHaveLength(2);
    const orders = await upstream.findOrdersByExternalRef(externalRef);
    expect(orders.map((o) => o.id)).toEqual([order.id]);
  });

  it('waits out a create still in flight upstream (409) and gets the one order', async () => {
    const upstream = client({ timeoutMs: 300, maxRetries: 6 });
    const quote = await quoteFor(upstream, 'quote-inflight-1');
    await sandbox.control.setFaults([
      // Long enough that the retry after the 300 ms timeout reaches the upstream while the first create is
      // still in flight even on a busy machine (the in-flight waits, 250 ms each, stay within six retries).
      { kind: 'latency', method: 'POST', path: '/orders', latencyMs: 1_200, times: 1 },
    ]);
    const from = relay.requests.length;
    const externalRef = `chk-inflight-${Date.now()}`;
    const order = await upstream.createOrder(
      { quoteId: quote.id, externalRef },
      { idempotencyKey: `order:${externalRef}` },
    );
    expect(forwarded(from, 'POST', '/orders').length).toBeGreaterThanOrEqual(3);
    expect(await upstream.findOrdersByExternalRef(externalRef)).toHaveLength(1);
    expect(order.externalRef).toBe(externalRef);

    // The same key with another body is final: no retry.
    const other = await quoteFor(upstream, 'quote-inflight-2');
    const before = relay.requests.length;
    const conflict = await failure(
      upstream.createOrder({ quoteId: other.id, externalRef }, { idempotencyKey: `order:${externalRef}` }),
    );
    expect(conflict).toMatchObject({ code: 'idempotency_conflict', upstreamStatus: 422 });
    expect(forwarded(before, 'POST', '/orders')).toHaveLength(1);
  });

  it('follows the order’s eSIM links, and refuses a link to another host without calling it', async () => {
    const upstream = client({ baseUrl: sandbox.url });
    const quote = await quoteFor(upstream, 'quote-esim-1');
    const externalRef = `chk-esim-${Date.now()}`;
    let order = await upstream.createOrder(
      { quoteId: quote.id, externalRef },
      { idempotencyKey: externalRef },
    );
    for (let i = 0; i < 20 && !order.esim; i += 1) order = await upstream.getOrder(order.id);
    if (!order.esim) throw new Error('the order got no eSIM');
    const esim = await upstream.getEsim(order.esim.resourceUrl);
    expect(esim.id).toBe(order.esim.id);
    expect(esim.installation.lpa).toMatch(/^LPA:1\$/);
    const actions = await upstream.getEsimActions(esim.actionsUrl);
    expect(actions.esimId).toBe(esim.id);
    const topUps = await upstream.getTopUpOffers(esim.id);
    expect(topUps.meta.esimId).toBe(esim.id);
    const link = await upstream.createDeliveryLink(
      order.id,
      { maxViews: 2 },
      { idempotencyKey: `dl-${externalRef}` },
    );
    expect(link.maxViews).toBe(2);
    await expect(upstream.revokeDeliveryLink(link.id)).resolves.toMatchObject({
      id: link.id,
      status: 'revoked',
    });

    let foreignCalls = 0;
    const foreign = createServer((_request, response) => {
      foreignCalls += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const port = (foreign.address() as AddressInfo).port;
    try {
      const refused = await failure(upstream.getEsim(`http://127.0.0.1:${port}/esims/${esim.id}`));
      expect(refused).toMatchObject({ code: 'internal', status: 502 });
      expect(foreignCalls).toBe(0);
    } finally {
      foreign.close();
    }
    const logs = logLines.join('\n');
    expect(logs).not.toContain(esim.installation.lpa);
    expect(logs).not.toContain(esim.installation.activationCode);
    expect(logs).not.toContain(link.url);
  });

  it('strips unknown fields of an answer but refuses a wrong type as internal, logging the request id', async () => {
    const upstream = client();
    relay.hooks.rewrite = (request, body) => {
      if (!request.path.startsWith('/capabilities')) return body;
      const envelope = body as { data: Record<string, unknown>; meta: Record<string, unknown> };
      return {
        ...envelope,
        loyalty: true,
        data: {
          ...envelope.data,
          newCapability: 'x',
          settlement: { ...(envelope.data.settlement as object), vat: 20 },
        },
      };
    };
    const capabilities = await upstream.getCapabilities();
    expect(capabilities).not.toHaveProperty('newCapability');
    expect(capabilities.settlement).not.toHaveProperty('vat');

    relay.hooks.rewrite = (request, body) => {
      if (!request.path.startsWith('/account')) return body;
      const envelope = body as { data: Record<string, unknown>; meta: { requestId: string } };
      return { ...envelope, data: { ...envelope.data, balance: 'plenty' } };
    };
    const before = logLines.length;
    const error = await failure(upstream.getAccount());
    expect(error).toMatchObject({ code: 'internal', status: 502, upstreamStatus: 200 });
    expect(error.upstreamRequestId).toMatch(/.+/);
    const logged = logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        upstreamRequestId: error.upstreamRequestId,
        issues: [expect.objectContaining({ path: 'data.balance' })],
      }),
    );
  });

  it('keeps connections alive in one pool shared by the clients of an origin', async () => {
    const lease = acquireUpstreamPool(new URL(relay.url).origin);
    try {
      const first = client();
      const second = client();
      const connectionsBefore = relay.connections;
      for (let i = 0; i < 10; i += 1) {
        await (i % 2 === 0 ? first : second).getCapabilities();
      }
      expect(relay.connections - connectionsBefore).toBeLessThanOrEqual(1);
      await Promise.all(Array.from({ length: 8 }, () => first.listProducts({ limit: 1 })));
      const afterBurst = relay.connections;
      await Promise.all(Array.from({ length: 8 }, () => second.listProducts({ limit: 1 })));
      expect(relay.connections).toBe(afterBurst);
      expect(lease.pool.stats.connected).toBeGreaterThanOrEqual(1);
    } finally {
      await lease.release();
    }
  });

  it('never writes the API key to a log line', () => {
    expect(logLines.length).toBeGreaterThan(20);
    expect(logLines.join('\n')).not.toContain(apiKey);
  });
});
