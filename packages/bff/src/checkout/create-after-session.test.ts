/**
 * A checkout's create read back after its session ended, over HTTP against the real sandbox: a page reloaded after
 * its session's end sends the same create again (same token, key and body) and gets the checkout that create made,
 * never a second one (a top-up's too); the ended token does nothing else — no new create, no other body, no read, no quote — nor
 * from another widget's origin; a create still running is "in progress"; after the grace, the refusal is final.
 * On each store: the memory and the embedded store expire records on the BFF's clock, which the test moves; Redis
 * keeps its own time, so there the record's time to live is read.
 *
 * Sessions last 60 s here and answers are kept 1 h (`idempotencyTtlHours`): the grace after a session's end.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  EsimViewResponseSchema,
  MANAGE_TOKEN_HEADER,
  SessionSchema,
} from '@esim-embed/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim, myEsim } from '../../testing/after-sale-flow';
import { startRedisServer } from '../../testing/redis-server';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  startBff,
  type TestClock,
  testClock,
  testConfig,
  UNANSWERED_UPSTREAM,
  type WidgetPage,
} from '../../testing/stack';
import { startTestRelay } from '../../testing/test-relay';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';

const SESSION_MS = 60_000;
const GRACE_MS = 60 * 60_000;

/**
 * The sandbox and a BFF on `store` with 60 s sessions and a 1 h grace, its clock moved by the test; the widget
 * `shop-held` reaches the sandbox through a relay that can hold its orders.
 */
async function startOn(store: (clock: TestClock) => Promise<Store>) {
  const clock = testClock();
  const sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const relay = await startTestRelay(sandbox.url);
  const { bff, server } = await startBff(sandbox.url, {
    sessionSecret: randomBytes(32),
    store: await store(clock),
    bffOptions: { now: clock.now },
    config: (url) => {
      const config = testConfig(url, {
        sessionTtlSeconds: SESSION_MS / 1000,
        idempotencyTtlHours: GRACE_MS / 3_600_000,
        // A create's lease outlasts the clock's jumps below, so that one still running is seen as running.
        takeoverAfterMs: 60_000,
      });
      const shop = config.widgets[0] as (typeof config.widgets)[number];
      const held = {
        ...shop,
        id: 'shop-held',
        upstream: { ...shop.upstream, baseUrl: relay.url, ...UNANSWERED_UPSTREAM },
      };
      return { ...config, widgets: [...config.widgets, held] };
    },
  });
  return {
    /** Moves the BFF's clock and the sandbox's together (the upstream's quotes expire on the sandbox's). */
    async advance(ms: number) {
      clock.advance(ms);
      await sandbox.control.advanceClock(ms);
    },
    relay,
    bff,
    url: server.url,
    /** The upstream orders of a checkout of `widgetId`. */
    ordersOf: async (widgetId: string, checkoutId: string) =>
      (await bff.widgets.get(widgetId)?.upstream.findOrdersByExternalRef(checkoutId)) ?? [],
    async close() {
      await server.close();
      await relay.close();
      await sandbox.close();
    },
  };
}
type Running = Awaited<ReturnType<typeof startOn>>;

async function quoteFor(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  return quote.body.data.id;
}

const checkoutBody = (quoteId: string) => ({
  quoteId,
  email: 'traveller@example.com',
  locale: 'en',
  termsAccepted: true,
});

function expectRefused(answer: Answer, reason: string) {
  expect(answer.status).toBe(401);
  expect(answer.body.error).toEqual({ code: 'widget_session_invalid', params: { reason } });
}

/** A store for the test, what reads its records' time to live where it keeps its own time, and its clean-up. */
interface TestStore {
  store: Store;
  /** The time to live of the longest-kept idempotency record (Redis: its records expire on its own clock). */
  recordTtlMs?: () => Promise<number>;
  done?: () => Promise<void>;
}

/** The flow every store must keep. */
function readBackAfterSession(name: string, open: (clock: TestClock) => Promise<TestStore>) {
  describe(`a checkout's create after its session ended (${name} store)`, () => {
    let running: Running;
    let opened: TestStore;
    beforeAll(async () => {
      running = await startOn(async (clock) => {
        opened = await open(clock);
        return opened.store;
      });
    });
    afterAll(async () => {
      await running?.close();
      await opened?.done?.();
    });

    it('answers the checkout that create made, once, and nothing else; after the grace, refuses for good', async () => {
      const { advance, ordersOf } = running;
      const page = await openWidget(running.url, 'shop');
      // The session says until when its create can be read back.
      const session = SessionSchema.parse(page.session);
      expect(Date.parse(session.replayUntil ?? '') - Date.parse(session.expiresAt)).toBe(GRACE_MS);
      const key = newKey();
      const body = checkoutBody(await quoteFor(page));
      const first = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      expect(first.status).toBe(201);
      expect(await ordersOf('shop', first.body.data.id)).toHaveLength(1);
      if (opened.recordTtlMs) expect(await opened.recordTtlMs()).toBeGreaterThan(GRACE_MS);
      // Kept that long, the record holds neither the client secret nor the traveller's email.
      const records = await running.bff.store.scanKeys('idempotency:session:', null, 100);
      const kept = await Promise.all(records.keys.map((name) => running.bff.store.get(name)));
      expect(kept.map((record) => record?.value).join('\n')).not.toMatch(
        new RegExp(`traveller@example\\.com|${first.body.data.clientSecret}`),
      );

      await advance(SESSION_MS + 1_000);
      // The ended session reads back what its create made, exactly as a replay within it (the client secret too).
      const again = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.body.data).toEqual(first.body.data);
      expect(await ordersOf('shop', first.body.data.id)).toHaveLength(1);

      // Nothing new: no other create, not the same key with another body, no read of that checkout, no quote.
      expectRefused(await page.post('/v1/checkouts', body, { 'Idempotency-Key': newKey() }), 'expired');
      expectRefused(
        await page.post('/v1/checkouts', { ...body, email: 'other@example.com' }, { 'Idempotency-Key': key }),
        'expired',
      );
      expectRefused(
        await page.get(`/v1/checkouts/${first.body.data.id}`, {
          [CHECKOUT_SECRET_HEADER]: first.body.data.clientSecret,
        }),
        'expired',
      );
      expectRefused(
        await page.post('/v1/quotes', { offerId: 'off_1' }, { 'Idempotency-Key': newKey() }),
        'expired',
      );

      // Up to the end of the grace its answer is kept (the session's end is a whole second: 30 s of margin here);
      // from then on the refusal is final.
      await advance(GRACE_MS - 30_000);
      const late = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      expect(late.status).toBe(201);
      expect(late.body.data.id).toBe(first.body.data.id);
      await advance(31_000);
      expectRefused(await page.post('/v1/checkouts', body, { 'Idempotency-Key': key }), 'expired');
      expect(await ordersOf('shop', first.body.data.id)).toHaveLength(1);
    });

    it('answers a top-up’s checkout the same way (its manage token sent again), and makes no second one', async () => {
      const { advance, ordersOf } = running;
      const page = await openWidget(running.url, 'shop');
      const esim = await buyEsim(page);
      const view = EsimViewResponseSchema.parse((await myEsim(page, esim.manageToken)).body).data;
      const offer = view.topUp.offers[0];
      if (offer === undefined) throw new Error('no top-up offer');
      const quote = await page.post(
        '/v1/quotes',
        { offerId: offer.offerId, esimId: esim.esimId },
        { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken },
      );
      expect(quote.status).toBe(201);
      const headers = { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken };
      const body = checkoutBody(quote.body.data.id);
      const first = await page.post('/v1/checkouts', body, headers);
      expect(first.status).toBe(201);
      expect(first.body.data.kind).toBe('top_up');

      await advance(SESSION_MS + 1_000);
      const again = await page.post('/v1/checkouts', body, headers);
      expect(again.status).toBe(201);
      expect(again.body.data).toEqual(first.body.data);
      expect(await ordersOf('shop', first.body.data.id)).toHaveLength(1);
      // Nor may the ended session ask anything of the eSIM.
      expectRefused(await myEsim(page, esim.manageToken), 'expired');
    });

    it('refuses the ended token from another widget’s origin, and a create it never sent', async () => {
      const { advance } = running;
      const page = await openWidget(running.url, 'shop');
      const key = newKey();
      const body = checkoutBody(await quoteFor(page));
      expect((await page.post('/v1/checkouts', body, { 'Idempotency-Key': key })).status).toBe(201);
      const unsent = checkoutBody(await quoteFor(page));
      await advance(SESSION_MS + 1_000);
      // `https://rub.example` is another widget's origin: the token is bound to its own.
      const foreign = await call(running.url, '/v1/checkouts', {
        method: 'POST',
        headers: {
          Origin: 'https://rub.example',
          Authorization: `Bearer ${page.token}`,
          'Idempotency-Key': key,
        },
        body,
      });
      expectRefused(foreign, 'origin');
      // A create that never reached the BFF (its quote still unused) is not made now: final.
      expectRefused(await page.post('/v1/checkouts', unsent, { 'Idempotency-Key': newKey() }), 'expired');
    });

    it('answers "in progress" while the create still runs, then the checkout it made', async () => {
      const { advance, relay, ordersOf } = running;
      let letGo: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const isOrder = (request: { method: string; path: string }) =>
        request.method === 'POST' && request.path.startsWith('/orders');
      relay.hooks = {
        beforeForward: async (request) => {
          if (isOrder(request)) await released;
        },
      };
      const page = await openWidget(running.url, 'shop-held');
      const key = newKey();
      const body = checkoutBody(await quoteFor(page));
      // Late in the session the create goes, and its order is held on the way to the upstream.
      await advance(SESSION_MS - 10_000);
      const first = page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      await eventually(async () => (relay.requests.some(isOrder) ? true : undefined));
      await advance(11_000);
      const meanwhile = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.body.error).toEqual({
        code: 'idempotency_conflict',
        params: { field: 'Idempotency-Key', reason: 'in_progress' },
      });
      expect(Number(meanwhile.headers.get('retry-after'))).toBeGreaterThan(0);
      letGo();
      const made = await first;
      expect(made.status).toBe(201);
      const again = await page.post('/v1/checkouts', body, { 'Idempotency-Key': key });
      expect(again.status).toBe(201);
      expect(again.body.data).toEqual(made.body.data);
      expect(await ordersOf('shop-held', made.body.data.id)).toHaveLength(1);
    });
  });
}

readBackAfterSession('memory', async (clock) => ({ store: createMemoryStore({ now: clock.now }) }));

readBackAfterSession('embedded', async (clock) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-after-session-'));
  return {
    store: openSqliteStore({ dataDir, now: clock.now }),
    done: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

readBackAfterSession('Redis', async () => {
  const redis = await startRedisServer();
  const prefix = `after-session-${randomBytes(4).toString('hex')}:`;
  const reader = new Redis(redis.url);
  return {
    store: createRedisStore({ url: redis.url, keyPrefix: prefix }),
    async recordTtlMs() {
      const keys = await reader.keys(`${prefix}idempotency:session:*`);
      return Math.max(...(await Promise.all(keys.map((key) => reader.pttl(key)))));
    },
    async done() {
      reader.disconnect();
      await redis.stop();
    },
  };
});
