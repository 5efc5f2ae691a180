/**
 * Two BFF instances on one real redis-server share the upstream key's budget: a flood from one address spread
 * over both gets its address's share once, not once per instance, and a traveller on either still buys.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import type { Plan } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../../testing/after-sale-flow';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  type Answer,
  awayFromTheMinuteEnd,
  call,
  newKey,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testConfig,
} from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import { createRedisStore } from '../store/redis-store';
import { MIN_ADDRESS_CALLS } from './budget-shares';

const FLOOD_ADDRESS = '198.51.100.9';

let redis: RunningRedis;
let sandbox: RunningSandbox;
let relay: TestRelay;
let instances: RunningBff[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  await sandbox.control.setRateLimit(SANDBOX_KEYS.globetrotter, 200);
  relay = await startTestRelay(sandbox.url);
  const sessionSecret = randomBytes(32);
  const keyPrefix = `bff-${randomBytes(4).toString('hex')}:`;
  // The default shares and no configured limit (the sandbox states the key's).
  const config = (url: string) => {
    const base = testConfig(url);
    const widgets = base.widgets.map((widget) => ({
      ...widget,
      upstream: { ...widget.upstream, rateLimitPerMinute: undefined },
    }));
    return { ...base, trustedProxyHops: 1, upstreamBudget: {}, widgets };
  };
  for (let index = 0; index < 2; index += 1) {
    instances.push(
      await startBff(relay.url, {
        config,
        sessionSecret,
        store: createRedisStore({ url: redis.url, keyPrefix }),
      }),
    );
  }
});
afterAll(async () => {
  for (const instance of instances) await instance.server.close();
  instances = [];
  await relay?.close();
  await sandbox?.close();
  await redis?.stop();
});

/** A session opened on instance `first`, whose calls alternate between the instances. */
async function pageAt(address: string, widgetId: string, first = 0) {
  const headers = { Origin: SHOP_ORIGIN, 'X-Forwarded-For': address };
  const url = (turn: number) => (instances[turn % instances.length] as RunningBff).server.url;
  const session = await call(url(first), '/v1/sessions', { method: 'POST', headers, body: { widgetId } });
  expect(session.status).toBe(201);
  const auth = { ...headers, Authorization: `Bearer ${session.body.data.token}` };
  let turn = first;
  const nextUrl = () => {
    turn += 1;
    return url(turn);
  };
  return {
    get: (path: string, extra: Record<string, string> = {}) =>
      call(nextUrl(), path, { headers: { ...auth, ...extra } }),
    post: (path: string, body: unknown, extra: Record<string, string> = {}) =>
      call(nextUrl(), path, { method: 'POST', headers: { ...auth, ...extra }, body }),
  };
}

describe('the upstream budget on two instances sharing Redis', () => {
  it('counts one address across both instances, and a traveller on either still buys', async () => {
    const scout = await pageAt('203.0.113.70', 'shop');
    const destinations = await scout.get('/v1/destinations?locale=en');
    const offers: string[] = [];
    for (const destination of destinations.body.data as { code: string }[]) {
      const plans = await scout.get(`/v1/destinations/${destination.code}/plans`);
      offers.push(...(plans.body.data as Plan[]).map((plan) => plan.offerId));
      if (offers.length >= 10) break;
    }
    // The budget and the upstream count per minute of the clock: the flood starts well inside one.
    await awayFromTheMinuteEnd();
    const from = relay.requests.length;

    // 12 sessions, half opened on each instance, 10 quotes each: every other request on the other instance.
    const pages = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        pageAt(FLOOD_ADDRESS, index % 2 === 0 ? 'shop' : 'shop-pay', index),
      ),
    );
    const answers: Answer[] = [];
    const work = pages.flatMap((page) =>
      offers
        .slice(0, 10)
        .map((offerId) => () => page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() })),
    );
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = work.shift(); next !== undefined; next = work.shift()) answers.push(await next());
      }),
    );
    expect(answers).toHaveLength(120);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201, 429]));

    // Per minute of the clock, the address's quotes reached the upstream within one share — not one per instance.
    const quotesPerMinute = new Map<number, number>();
    for (const request of relay.requests.slice(from)) {
      if (request.method !== 'POST' || request.path !== '/quotes') continue;
      const minute = Math.floor(request.at / 60_000);
      quotesPerMinute.set(minute, (quotesPerMinute.get(minute) ?? 0) + 1);
    }
    expect(Math.max(...quotesPerMinute.values())).toBeLessThanOrEqual(MIN_ADDRESS_CALLS);
    const created = answers.filter((answer) => answer.status === 201).length;
    expect(created).toBeGreaterThanOrEqual(MIN_ADDRESS_CALLS);

    // A traveller at another address, across both instances, buys to the installation.
    const traveller = await pageAt('203.0.113.21', 'shop', 1);
    const quote = await traveller.post('/v1/quotes', { offerId: offers[0] }, { 'Idempotency-Key': newKey() });
    expect(quote.status).toBe(201);
    const checkout = await traveller.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const { id, clientSecret } = checkout.body.data;
    await untilReady(traveller, id, clientSecret);
    expect(relay.requests.slice(from).filter((request) => request.status === 429)).toEqual([]);
  });
});
