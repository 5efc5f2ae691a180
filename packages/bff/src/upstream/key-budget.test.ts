/**
 * The upstream key's budget against the real sandbox, whose key allows 120 calls a minute, seen through a relay
 * that records every call: one address floods quotes from many sessions on three widgets sharing the key while a
 * traveller elsewhere buys; the same offer quoted twice in a session is quoted upstream once.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, type Plan } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../../testing/after-sale-flow';
import {
  type Answer,
  awayFromTheMinuteEnd,
  call,
  eventually,
  newKey,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testConfig,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import { createMemoryStore } from '../store/memory-store';
import type { Store } from '../store/store';

/** The key's limit at the sandbox: small, so that a few hundred requests would spend it many times over. */
const KEY_LIMIT = 120;
const FLOOD_ADDRESS = '198.51.100.7';
const WIDGETS = ['shop', 'shop-pay', 'shop-two'] as const;

let sandbox: RunningSandbox;
let relay: TestRelay;
let bff: RunningBff;
/** Store operations on the budget's keys (its counters and its pause). */
let budgetOperations = 0;

/** The memory store, counting the operations on the budget's keys. */
function countingBudgetOperations(store: Store): Store {
  const seen = <R>(key: string, run: () => R): R => {
    if (key.startsWith('counter:upstream:') || key.startsWith('upstream-pause:')) budgetOperations += 1;
    return run();
  };
  return {
    get: (key) => seen(key, () => store.get(key)),
    insert: (key, value, ttlMs) => seen(key, () => store.insert(key, value, ttlMs)),
    compareAndSet: (key, version, value, ttlMs) =>
      seen(key, () => store.compareAndSet(key, version, value, ttlMs)),
    compareAndDelete: (key, version) => seen(key, () => store.compareAndDelete(key, version)),
    increment: (key, by, windowMs) => seen(key, () => store.increment(key, by, windowMs)),
    queue: (name) => store.queue(name),
    sortedIndex: (name) => store.sortedIndex(name),
    entryBook: (name) => store.entryBook(name),
    scanKeys: (prefix, cursor, count) => store.scanKeys(prefix, cursor, count),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  await sandbox.control.setRateLimit(SANDBOX_KEYS.globetrotter, KEY_LIMIT);
  relay = await startTestRelay(sandbox.url);
  bff = await startBff(relay.url, {
    sessionSecret: randomBytes(32),
    bffOptions: { observability: { metrics: true } },
    store: countingBudgetOperations(createMemoryStore()),
    config: (url) => {
      const base = testConfig(url);
      const shop = base.widgets.find((widget) => widget.id === 'shop');
      if (shop === undefined) throw new Error('the test config has no shop widget');
      // Three widgets on one key (no rateLimitPerMinute configured: the sandbox states the key's), the default
      // shares, one proxy hop trusted so that each request names its client address.
      const widgets = [...base.widgets, { ...shop, id: 'shop-two' }].map((widget) => ({
        ...widget,
        upstream: { ...widget.upstream, rateLimitPerMinute: undefined },
      }));
      return { ...base, trustedProxyHops: 1, upstreamBudget: {}, widgets };
    },
  });
});
afterAll(async () => {
  await bff?.server.close();
  await relay?.close();
  await sandbox?.close();
});

/** A widget page at one client address. */
async function pageAt(address: string, widgetId: string) {
  const headers = { Origin: SHOP_ORIGIN, 'X-Forwarded-For': address };
  const session = await call(bff.server.url, '/v1/sessions', { method: 'POST', headers, body: { widgetId } });
  expect(session.status).toBe(201);
  const auth = { ...headers, Authorization: `Bearer ${session.body.data.token}` };
  return {
    get: (path: string, extra: Record<string, string> = {}) =>
      call(bff.server.url, path, { headers: { ...auth, ...extra } }),
    post: (path: string, body: unknown, extra: Record<string, string> = {}) =>
      call(bff.server.url, path, { method: 'POST', headers: { ...auth, ...extra }, body }),
  };
}

type Page = Awaited<ReturnType<typeof pageAt>>;

/** Offers of several countries (catalog reads: answered from the BFF's catalog, no upstream call). */
async function offerIds(page: Page, count: number): Promise<string[]> {
  const destinations = await page.get('/v1/destinations?locale=en');
  expect(destinations.status).toBe(200);
  const ids: string[] = [];
  for (const destination of destinations.body.data as { code: string }[]) {
    const plans = await page.get(`/v1/destinations/${destination.code}/plans`);
    ids.push(...(plans.body.data as Plan[]).map((plan) => plan.offerId));
    if (ids.length >= count) break;
  }
  return ids.slice(0, count);
}

const quote = (page: Page, offerId: string) =>
  page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });

/** The calls the sandbox received with the shared key. */
const keyCalls = () =>
  relay.requests.filter((request) => request.headers['x-api-key'] === SANDBOX_KEYS.globetrotter);

describe('cached catalog reads', () => {
  it('make no upstream call and no store operation of the budget', async () => {
    const page = await pageAt('203.0.113.40', 'shop');
    await offerIds(page, 1);
    const [calls, operations] = [relay.requests.length, budgetOperations];
    // The catalog's load went through the budget: the count sees its operations.
    expect(operations).toBeGreaterThan(0);
    for (let index = 0; index < 20; index += 1) await offerIds(page, 10);
    expect(relay.requests.length).toBe(calls);
    expect(budgetOperations).toBe(operations);
  });
});

describe('a second quote of the same offer in a session', () => {
  it('gets the live quote back without an upstream call, and a new one once a checkout used it', async () => {
    const page = await pageAt('203.0.113.50', 'shop');
    const [offerId] = await offerIds(page, 1);
    const quotesSent = () => keyCalls().filter((request) => request.path === '/quotes').length;
    const before = quotesSent();
    const first = await quote(page, offerId as string);
    const second = await quote(page, offerId as string);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data).toEqual(first.body.data);
    expect(quotesSent() - before).toBe(1);
    // Another session asking the same offer gets its own quote.
    const other = await quote(await pageAt('203.0.113.51', 'shop'), offerId as string);
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(quotesSent() - before).toBe(2);
    // A quote a checkout took is not given again.
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: first.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const third = await quote(page, offerId as string);
    expect(third.status).toBe(201);
    expect(third.body.data.id).not.toBe(first.body.data.id);
    expect(quotesSent() - before).toBe(3);
  });
});

describe('one address flooding quotes across sessions and widgets of one key', () => {
  it('is refused with rate_limited while a traveller elsewhere buys, and the upstream never sees more than its limit', async () => {
    const scout = await pageAt('203.0.113.60', 'shop');
    const offers = await offerIds(scout, 10);
    expect(offers).toHaveLength(10);
    // The budget and the upstream count per minute of the clock: the flood starts well inside one.
    await awayFromTheMinuteEnd();
    const from = relay.requests.length;

    // 31 sessions on three widgets, 10 quotes of different offers each, 16 at a time.
    const answers: Answer[] = [];
    const flood = (async () => {
      const pages = await Promise.all(
        Array.from({ length: 31 }, (_, index) => pageAt(FLOOD_ADDRESS, WIDGETS[index % 3] as string)),
      );
      const work = pages.flatMap((page) => offers.map((offerId) => () => quote(page, offerId)));
      const worker = async () => {
        for (let next = work.shift(); next !== undefined; next = work.shift()) {
          // A dropped connection is an answer too (status 0): the flood never fails the test by itself.
          answers.push(
            await next().catch(() => ({ status: 0, headers: new Headers(), body: undefined, text: '' })),
          );
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    })();
    // Once the flood is being turned away (or, without a budget, the upstream refuses it).
    await eventually(async () => (answers.some((answer) => answer.status !== 201) ? true : undefined));

    // A traveller at another address buys from start to installation while the flood goes on.
    const traveller = await pageAt('203.0.113.20', 'shop');
    const offered = await quote(traveller, offers[3] as string);
    expect(offered.status).toBe(201);
    const checkout = await traveller.post(
      '/v1/checkouts',
      { quoteId: offered.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const { id, clientSecret } = checkout.body.data;
    await untilReady(traveller, id, clientSecret);
    const installation = await traveller.get(`/v1/checkouts/${id}/installation`, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    expect(installation.status).toBe(200);
    await flood;

    // The flood: a few quotes, then rate_limited with Retry-After; never a 5xx.
    expect(answers).toHaveLength(310);
    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses].sort()).toEqual([201, 429]);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(200);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Operators see the refusals by share.
    const refusals = (await bff.bff.metrics?.upstreamBudgetRefusals.get())?.values ?? [];
    expect(refusals.find((value) => value.labels.share === 'address')?.value).toBeGreaterThanOrEqual(200);
    // The upstream: never asked to refuse, never more than the key's limit in one of its minutes.
    const calls = relay.requests
      .slice(from)
      .filter((request) => request.headers['x-api-key'] === SANDBOX_KEYS.globetrotter);
    expect(calls.filter((request) => request.status === 429)).toEqual([]);
    const perMinute = new Map<number, number>();
    for (const request of keyCalls()) {
      const minute = Math.floor(request.at / 60_000);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(KEY_LIMIT);
    // The flood's quotes reached the upstream only within its address's share (60 a minute, two minutes at most).
    const flooded = answers.length - refused.length;
    expect(flooded).toBeLessThanOrEqual(120);
    expect(calls.filter((request) => request.path === '/quotes').length).toBe(flooded + 1);
  });
});
