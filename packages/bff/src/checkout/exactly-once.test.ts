/**
 * Exactly one upstream order per checkout, against the real sandbox with its fault injection: idempotent
 * replays, concurrent double submits, concurrent confirms, and upstream 5xx, dropped connections after
 * commit, timeouts and 429 while the order is placed.
 *
 * The BFF and its store read a clock the test moves: a placement's backoff and a 429's pause end when the test
 * moves the clock past them, and the upstream client's pauses between attempts move it on instead of sleeping.
 */

import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  TEST_ENV,
  testClock,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import { createMemoryStore } from '../store/memory-store';

/** The clock of the BFF and of its store (the upstream's pause is kept there). */
const clock = testClock();
/** Every pause the upstream client took between attempts, in ms (each moved the clock on). */
const upstreamPauses: number[] = [];
let stack: Stack;
beforeAll(async () => {
  Object.assign(TEST_ENV, { TEST_LAGOON_KEY: SANDBOX_KEYS.lagoon });
  stack = await startStack({
    sandbox: { faultInjection: true },
    store: createMemoryStore({ now: clock.now }),
    // The background watch looks five times a second, so a postponed placement is retried soon after its pause.
    bffOptions: {
      now: clock.now,
      watchIntervalMs: 200,
      async upstreamSleep(ms) {
        upstreamPauses.push(ms);
        clock.advance(ms);
      },
    },
    config: (url) => {
      const config = testConfig(url, { checkoutWatchSeconds: 1 });
      const base = config.widgets[0] as (typeof config.widgets)[number];
      return {
        ...config,
        widgets: [
          ...config.widgets,
          {
            ...base,
            id: 'shop-slow',
            upstream: { baseUrl: url, apiKeyEnv: 'TEST_UPSTREAM_KEY', timeoutMs: 400, maxRetries: 1 },
          },
          {
            ...base,
            id: 'shop-429',
            upstream: { baseUrl: url, apiKeyEnv: 'TEST_LAGOON_KEY', timeoutMs: 2_000, maxRetries: 1 },
          },
        ],
      };
    },
  });
});
afterEach(async () => {
  await stack.sandbox.control.clearFaults();
});
afterAll(async () => {
  await stack?.close();
});

async function quoteFor(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  const code = destinations.body.data[0].code;
  const plans = await page.get(`/v1/destinations/${code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  return quote.body.data.id;
}

const checkoutBody = (quoteId: string) => ({ quoteId, locale: 'en', termsAccepted: true });

async function ordersOf(widgetId: string, checkoutId: string) {
  return (await stack.bff.widgets.get(widgetId)?.upstream.findOrdersByExternalRef(checkoutId)) ?? [];
}

/** Poll as the widget does, a second of the clock apart (a postponed placement's backoff runs out meanwhile). */
async function untilReady(page: WidgetPage, id: string, secret: string) {
  return await eventually(async () => {
    const answer = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: secret });
    expect(answer.status).toBe(200);
    if (answer.body.data.status === 'ready') return answer.body.data;
    clock.advance(1_000);
    return undefined;
  }, 20_000);
}

/** The order requests the BFF sent to the upstream so far (its log of upstream calls). */
const ordersSent = () =>
  stack.logs.filter((line) => line.includes('"message":"upstream call"') && line.includes('"createOrder"'))
    .length;

/** The BFF postponed the checkout's placement for the `attempt`th time (logged). */
const postponed = (checkoutId: string, attempt: number) =>
  stack.logs.some(
    (line) =>
      line.includes('order placement postponed') &&
      line.includes(checkoutId) &&
      line.includes(`"attempt":${attempt}`),
  );

describe('idempotent creates', () => {
  it('refuses a create without Idempotency-Key', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const answer = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: 'validation_failed',
      params: { field: 'Idempotency-Key', reason: 'required' },
    });
  });

  it('replays the first answer for the same key and body, and places one order', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const key = newKey();
    const body = checkoutBody(await quoteFor(page));
    const first = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
    const second = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await ordersOf('shop', first.body.data.id)).toHaveLength(1);
  });

  it('answers the same key with another body with idempotency_conflict (422)', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const key = newKey();
    const quoteId = await quoteFor(page);
    expect((await page.post('/v1/checkouts', checkoutBody(quoteId), { 'Idempotency-Key': key })).status).toBe(
      201,
    );
    const other = await page.post(
      '/v1/checkouts',
      { ...checkoutBody(quoteId), locale: 'fr' },
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.error).toEqual({
      code: 'idempotency_conflict',
      params: { field: 'Idempotency-Key', reason: 'different_request' },
    });
  });

  it('scopes keys to the session', async () => {
    const key = newKey();
    const one = await openWidget(stack.server.url, 'shop');
    const two = await openWidget(stack.server.url, 'shop');
    const a = await one.post('/v1/checkouts', checkoutBody(await quoteFor(one)), { 'Idempotency-Key': key });
    const b = await two.post('/v1/checkouts', checkoutBody(await quoteFor(two)), { 'Idempotency-Key': key });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });

  it('lets concurrent duplicates with one key create one checkout and one order; the others may retry', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const key = newKey();
    const body = checkoutBody(await quoteFor(page));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => page.post('/v1/checkouts', body, { 'Idempotency-Key': key })),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const conflicts = answers.filter((answer) => answer.status === 409);
    expect(created.length + conflicts.length).toBe(8);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const conflict of conflicts) {
      expect(conflict.body.error).toEqual({
        code: 'idempotency_conflict',
        params: { field: 'Idempotency-Key', reason: 'in_progress' },
      });
      // About what remains of the first request's lease (5 s, renewed while it works).
      expect(Number(conflict.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(conflict.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    }
    const ids = new Set(created.map((answer) => answer.body.data.id));
    expect(ids.size).toBe(1);
    // A retry after the conflict gets the stored answer.
    const retried = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
    expect(retried.body.data.id).toBe([...ids][0]);
    expect(await ordersOf('shop', [...ids][0] as string)).toHaveLength(1);
  });

  it('turns a double submit with two keys into one checkout: the second hears quote_consumed', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const body = checkoutBody(await quoteFor(page));
    const before = (await stack.sandbox.control.state()).environments.test?.orders ?? 0;
    const answers = await Promise.all([
      page.post('/v1/checkouts', body, { 'Idempotency-Key': newKey() }),
      page.post('/v1/checkouts', body, { 'Idempotency-Key': newKey() }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.status === 409) as Answer;
    expect(refused.body.error.code).toBe('quote_consumed');
    const after = (await stack.sandbox.control.state()).environments.test?.orders ?? 0;
    expect(after - before).toBe(1);
  });
});

describe('partner_confirm under concurrency', () => {
  it('places one order when the partner confirms ten times at once', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const created = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)), {
      'Idempotency-Key': newKey(),
    });
    const id: string = created.body.data.id;
    const confirms = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(stack.server.url, `/v1/partner/checkouts/${id}/confirm`, {
          method: 'POST',
          headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
        }),
      ),
    );
    for (const confirm of confirms) expect(confirm.status).toBe(200);
    await untilReady(page, id, created.body.data.clientSecret);
    expect(await ordersOf('shop-pay', id)).toHaveLength(1);
  });

  it('cannot confirm a cancelled checkout, nor cancel a confirmed one', async () => {
    const partner = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
    const page = await openWidget(stack.server.url, 'shop-pay');
    const one = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)), {
      'Idempotency-Key': newKey(),
    });
    const cancel = await call(stack.server.url, `/v1/partner/checkouts/${one.body.data.id}/cancel`, {
      method: 'POST',
      headers: partner,
    });
    expect(cancel.body.data.status).toBe('cancelled');
    const late = await call(stack.server.url, `/v1/partner/checkouts/${one.body.data.id}/confirm`, {
      method: 'POST',
      headers: partner,
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_transition');
    expect(await ordersOf('shop-pay', one.body.data.id)).toHaveLength(0);

    const two = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)), {
      'Idempotency-Key': newKey(),
    });
    await call(stack.server.url, `/v1/partner/checkouts/${two.body.data.id}/confirm`, {
      method: 'POST',
      headers: partner,
    });
    const tooLate = await call(stack.server.url, `/v1/partner/checkouts/${two.body.data.id}/cancel`, {
      method: 'POST',
      headers: partner,
    });
    expect(tooLate.body.error.code).toBe('invalid_transition');
  });

  it('refuses a wrong partner secret and never confirms a direct checkout', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const created = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)), {
      'Idempotency-Key': newKey(),
    });
    const wrong = await call(stack.server.url, `/v1/partner/checkouts/${created.body.data.id}`, {
      headers: { [PARTNER_SECRET_HEADER]: `${PARTNER_SECRET}x` },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthorized');
    const direct = await call(stack.server.url, `/v1/partner/checkouts/${created.body.data.id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(direct.body.error.code).toBe('invalid_transition');
  });

  // The last partner call of this file: the client IP's budget stays spent for a minute.
  it('rate-limits a wrong partner secret per client IP, and answers the right one all the same', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 22; index += 1) {
      const answer = await call(stack.server.url, '/v1/partner/checkouts/chk_guessing00000', {
        headers: { [PARTNER_SECRET_HEADER]: 'stale-partner-secret' },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), 429, 429]);
    // The secret is compared first: the right one is answered (no such checkout), not refused for the address.
    const right = await call(stack.server.url, '/v1/partner/checkouts/chk_guessing00000', {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(right.status).toBe(404);
  });
});

/** One request per minute for the lagoon key, and that one used up now (whatever the window's phase). */
async function limitLagoonKey() {
  await stack.sandbox.control.setRateLimit(SANDBOX_KEYS.lagoon, 1);
  await stack.bff.widgets
    .get('shop-429')
    ?.upstream.getCapabilities()
    .catch(() => undefined);
}

/** The Retry-After of the upstream's 429 below. */
const RETRY_AFTER_MS = 6_000;
/**
 * The upstream refuses the next order with 429 and a Retry-After longer than any wait inside one call (the
 * upstream client waits out at most 5 s: `DEFAULT_RETRY_POLICY.maxRetryAfterMs`).
 */
const refuseNextOrder = () =>
  stack.sandbox.control.setFaults([
    {
      kind: 'error',
      method: 'POST',
      path: '/orders',
      status: 429,
      retryAfterSeconds: RETRY_AFTER_MS / 1000,
      times: 1,
    },
  ]);

describe('upstream faults while the order is placed', () => {
  async function buyWithFaults(widgetId: string, arm: () => Promise<unknown>) {
    const page = await openWidget(stack.server.url, widgetId);
    const quoteId = await quoteFor(page);
    await arm();
    const created = await page.post('/v1/checkouts', checkoutBody(quoteId), { 'Idempotency-Key': newKey() });
    expect(created.status).toBe(201);
    return { page, created: created.body.data };
  }

  it('5xx: retried with the same key, one order', async () => {
    const paused = upstreamPauses.length;
    const { page, created } = await buyWithFaults('shop', () =>
      stack.sandbox.control.setFaults([
        { kind: 'error', method: 'POST', path: '/orders', status: 503, times: 2 },
      ]),
    );
    // Both faults hit (a rule retires after its `times`), each retried after its Retry-After (1 s).
    expect((await stack.sandbox.control.state()).faults).toEqual([]);
    expect(upstreamPauses.slice(paused)).toEqual([1_000, 1_000]);
    await untilReady(page, created.id, created.clientSecret);
    expect(await ordersOf('shop', created.id)).toHaveLength(1);
  });

  it('a dropped connection after the upstream committed: the retry gets the same order', async () => {
    const { page, created } = await buyWithFaults('shop', () =>
      stack.sandbox.control.setFaults([
        { kind: 'drop_after_commit', method: 'POST', path: '/orders', times: 1 },
      ]),
    );
    expect((await stack.sandbox.control.state()).faults).toEqual([]);
    await untilReady(page, created.id, created.clientSecret);
    expect(await ordersOf('shop', created.id)).toHaveLength(1);
  });

  it('timeouts past every retry: the checkout waits in placing, then reconciles to one order', async () => {
    const { page, created } = await buyWithFaults('shop-slow', () =>
      stack.sandbox.control.setFaults([
        { kind: 'latency', method: 'POST', path: '/orders', latencyMs: 700, times: 4 },
      ]),
    );
    // The order request timed out; whether the upstream committed it meanwhile or not, no second one may exist.
    expect(['placing', 'provisioning', 'ready']).toContain(created.status);
    const timedOut = stack.logs.filter(
      (line) => line.includes('"operation":"createOrder"') && line.includes('"error":"timeout"'),
    );
    expect(timedOut.length).toBeGreaterThan(0);
    await stack.sandbox.control.clearFaults();
    await untilReady(page, created.id, created.clientSecret);
    expect(await ordersOf('shop-slow', created.id)).toHaveLength(1);
  });

  it('429 with a long Retry-After: nothing lost, placed once the upstream lets us', async () => {
    const { page, created } = await buyWithFaults('shop-429', refuseNextOrder);
    expect(created.status).toBe('placing');
    expect(created.failure).toBeNull();
    const sent = ordersSent();
    // A second later, past the placement's first backoff: polled meanwhile, the checkout shows its status, and
    // the placement tried again sends nothing (the key waits out the Retry-After).
    clock.advance(1_000);
    const polled = await page.get(`/v1/checkouts/${created.id}`, {
      [CHECKOUT_SECRET_HEADER]: created.clientSecret,
    });
    expect(polled.status).toBe(200);
    expect(polled.body.data.status).toBe('placing');
    // Tried again by that poll or by the background watch, whichever came first.
    await eventually(async () => (postponed(created.id, 2) ? true : undefined));
    expect(ordersSent()).toBe(sent);
    // The Retry-After has passed: the next attempt places the order.
    clock.advance(RETRY_AFTER_MS - 1_000);
    await untilReady(page, created.id, created.clientSecret);
    expect(ordersSent()).toBe(sent + 1);
    expect(await ordersOf('shop-429', created.id)).toHaveLength(1);
  });

  it('retries a postponed placement in the background, with nobody polling (the traveller left)', async () => {
    const { created } = await buyWithFaults('shop-429', refuseNextOrder);
    expect(created.status).toBe('placing');
    const sent = ordersSent();
    // Past the first backoff, within the Retry-After: the background retry is held back by the key's pause.
    clock.advance(1_000);
    await eventually(async () => (postponed(created.id, 2) ? true : undefined));
    expect(ordersSent()).toBe(sent);
    // Past the Retry-After: the background retry (the watch, or the instance's own resumer) places it.
    clock.advance(RETRY_AFTER_MS);
    const orders = await eventually(async () => {
      // Asked outside any request, like background work: refused while the key is paused.
      const found = await ordersOf('shop-429', created.id).catch(() => []);
      return found.length > 0 ? found : undefined;
    }, 20_000);
    expect(orders).toHaveLength(1);
  });

  it('a key spent for the minute: the order is not sent; the checkout is refused or waits in placing', async () => {
    const page = await openWidget(stack.server.url, 'shop-429');
    const quoteId = await quoteFor(page);
    await limitLagoonKey();
    const before = ordersSent();
    const created = await page.post('/v1/checkouts', checkoutBody(quoteId), { 'Idempotency-Key': newKey() });
    // The account read of the funding check comes first: refused by the budget unless it was cached; then the
    // order is what the budget refuses, and the checkout waits to be placed.
    if (created.status === 429) {
      expect(created.body.error.code).toBe('rate_limited');
      expect(Number(created.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } else {
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ status: 'placing', failure: null });
    }
    expect(ordersSent()).toBe(before);
    await stack.sandbox.control.setRateLimit(SANDBOX_KEYS.lagoon, null);
  });

  it('a status poll during an outage shows the last known status instead of failing', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const created = await page.post('/v1/checkouts', checkoutBody(await quoteFor(page)), {
      'Idempotency-Key': newKey(),
    });
    await stack.sandbox.control.setFaults([{ kind: 'error', path: '/orders*', status: 500 }]);
    const answer = await page.get(`/v1/checkouts/${created.body.data.id}`, {
      [CHECKOUT_SECRET_HEADER]: created.body.data.clientSecret,
    });
    expect(answer.status).toBe(200);
    expect(['provisioning', 'ready']).toContain(answer.body.data.status);
  });
});

describe('binding to the session and the widget', () => {
  it('checks out only quotes of the same session, and shows a checkout only to its widget and origin', async () => {
    const one = await openWidget(stack.server.url, 'shop');
    const two = await openWidget(stack.server.url, 'shop');
    const stolen = await two.post('/v1/checkouts', checkoutBody(await quoteFor(one)), {
      'Idempotency-Key': newKey(),
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe('quote_not_found');

    const created = (
      await one.post('/v1/checkouts', checkoutBody(await quoteFor(one)), { 'Idempotency-Key': newKey() })
    ).body.data;
    const secret = { [CHECKOUT_SECRET_HEADER]: created.clientSecret };
    // A reloaded page (a new session of the same widget and origin) resumes with the client secret.
    expect((await two.get(`/v1/checkouts/${created.id}`, secret)).status).toBe(200);
    const otherWidget = await openWidget(stack.server.url, 'shop-pay');
    expect((await otherWidget.get(`/v1/checkouts/${created.id}`, secret)).body.error.code).toBe(
      'checkout_not_found',
    );
    const otherOrigin = await openWidget(stack.server.url, 'shop', 'https://eu.shop.example');
    expect((await otherOrigin.get(`/v1/checkouts/${created.id}`, secret)).body.error.code).toBe(
      'checkout_not_found',
    );
  });
});
