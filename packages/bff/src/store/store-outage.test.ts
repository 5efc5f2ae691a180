/**
 * A store outage under a running BFF, with a real `redis-server` stopped (killed, then started again on its
 * port) or frozen (SIGSTOP, then SIGCONT): every request that needs the store is refused at once with
 * `503 store_unavailable` and `Retry-After`, never `500 internal`; `/readyz` says 503 while Redis is away;
 * service returns by itself; a write Redis receives after its caller gave up does not apply.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  eventually,
  newKey,
  openWidget,
  type RunningBff,
  SHOP_ORIGIN,
  startBff,
  testClock,
  type WidgetPage,
} from '../../testing/stack';
import { createLogger } from '../logger';
import { READINESS_CACHE_MS } from '../routes/operations';
import { createRedisStore } from './redis-store';
import { type Store, StoreUnavailableError } from './store';

/**
 * How long the test's stores wait for Redis's answer: shorter than the production default (500 ms), so that a
 * frozen Redis is noticed sooner and a busy machine has more of {@link FAST_MS} to answer the refusal in.
 */
const COMMAND_TIMEOUT_MS = 250;
/** A refusal must come well within this, whether Redis is gone or frozen (the command timeout and more). */
const FAST_MS = 1_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

/**
 * A Redis, a store on it whose log lines are kept, and a BFF on that store, on a clock the test moves on past
 * `/readyz`'s reuse of its last result.
 */
async function startOutageStack() {
  const redis = await startRedisServer();
  const storeLogs: string[] = [];
  const store = createRedisStore({
    url: redis.url,
    keyPrefix: `outage-${randomBytes(4).toString('hex')}:`,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
    logger: createLogger({ write: (line) => storeLogs.push(line) }),
  });
  const clock = testClock();
  const bff = await startBff(sandbox.url, {
    sessionSecret: randomBytes(32),
    store,
    bffOptions: { now: clock.now },
  });
  /** `/readyz`'s answer once its last result is no longer reused. */
  const readyAfresh = async () => {
    clock.advance(READINESS_CACHE_MS);
    return await readiness(bff);
  };
  return { redis, store, storeLogs, bff, readyAfresh };
}

/** A request timed, expecting the store's refusal. */
async function refused(request: () => ReturnType<typeof call>): Promise<number> {
  const started = performance.now();
  const answer = await request();
  const elapsed = performance.now() - started;
  expect(answer.status, answer.text).toBe(503);
  expect(answer.body.error.code).toBe('store_unavailable');
  expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0);
  expect(elapsed).toBeLessThan(FAST_MS);
  return elapsed;
}

/** Every `store_unavailable` answer received, to compare with the log lines. */
let refusalsSeen = 0;

async function tally(request: ReturnType<typeof call>): ReturnType<typeof call> {
  const answer = await request;
  if (answer.status === 503 && answer.body?.error?.code === 'store_unavailable') refusalsSeen += 1;
  return answer;
}

const newSession = (bff: RunningBff) =>
  tally(
    call(bff.server.url, '/v1/sessions', {
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN },
      body: { widgetId: 'shop-pay' },
    }),
  );

/** The first plan's offer of the first destination, read as the widget reads it. */
async function firstOffer(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  return plans.body.data[0].offerId;
}

/** A quote of `offerId` under a key of its own: it needs the store (its record and its idempotency key). */
const newQuote = (page: WidgetPage, offerId: string) =>
  page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });

const readiness = async (bff: RunningBff) => (await call(bff.server.url, '/readyz')).status;

/** Log lines of one level and message. */
const lines = (logs: string[], message: string) =>
  logs
    .map((line) => JSON.parse(line) as { level: string; message: string })
    .filter((l) => l.message === message);

/**
 * Where the logs stand when an outage is caused: its lines are those after this mark. A busy machine can make
 * Redis answer slower than the command timeout before the outage (the store then says it is unreachable and back
 * again): those lines belong to no outage this test caused, so they are not counted.
 */
function logMark(bff: RunningBff, storeLogs: string[]) {
  const [bffFrom, storeFrom] = [bff.logs.length, storeLogs.length];
  return { bffLogs: () => bff.logs.slice(bffFrom), storeLogs: () => storeLogs.slice(storeFrom) };
}

/** Every refusal is answered and logged as a refusal, none as a failure of the BFF; the outage once each way. */
function expectRefusalsLogged(since: ReturnType<typeof logMark>) {
  expect(lines(since.bffLogs(), 'request failed')).toEqual([]);
  expect(lines(since.bffLogs(), 'request refused: store unavailable')).toHaveLength(refusalsSeen);
  refusalsSeen = 0;
  const down = lines(
    since.storeLogs(),
    'store unreachable: requests are refused with store_unavailable until Redis answers',
  );
  expect(down).toHaveLength(1);
  expect(down[0]?.level).toBe('error');
  expect(lines(since.storeLogs(), 'store reachable again')).toHaveLength(1);
}

describe('Redis stopped under a running BFF', () => {
  let stack: Awaited<ReturnType<typeof startOutageStack>>;
  let page: WidgetPage;
  beforeAll(async () => {
    stack = await startOutageStack();
    page = await openWidget(stack.bff.server.url, 'shop-pay');
    expect((await page.get('/v1/destinations')).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.bff.server.close();
    await stack?.redis.stop();
  });

  it('refuses what needs the store (quotes, the first read of a session) fast with store_unavailable, then serves again', async () => {
    const { bff, redis, store, storeLogs, readyAfresh } = stack;
    const offerId = await firstOffer(page);
    // Sessions opened before the outage that have read nothing: a session's first read reserves its share of the
    // rate limit in the store (later reads spend it from memory, and a first session of an address in a minute is
    // counted in memory: those are served through an outage).
    const unread = await Promise.all(Array.from({ length: 5 }, () => openWidget(bff.server.url, 'shop-pay')));
    await eventually(async () => ((await store.ping()) ? true : undefined), 5_000);
    refusalsSeen = 0;
    const since = logMark(bff, storeLogs);
    await redis.stop();
    const timings: number[] = [];
    for (const fresh of unread) {
      timings.push(await refused(() => tally(newQuote(page, offerId))));
      timings.push(await refused(() => tally(fresh.get('/v1/destinations'))));
    }
    await eventually(async () => ((await readiness(bff)) === 503 ? true : undefined), 8_000);

    await redis.restart();
    const back = performance.now();
    await eventually(async () => ((await newSession(bff)).status === 201 ? true : undefined), 5_000);
    const recoveredInMs = performance.now() - back;
    expect((await page.get('/v1/destinations')).status).toBe(200);
    await eventually(async () => ((await readyAfresh()) === 200 ? true : undefined), 8_000);
    expectRefusalsLogged(since);
    console.info(
      `Redis killed: ${timings.length} refusals, slowest ${Math.round(Math.max(...timings))} ms; ` +
        `served again ${Math.round(recoveredInMs)} ms after Redis restarted`,
    );
  }, 40_000);
});

describe('Redis frozen under a running BFF', () => {
  let stack: Awaited<ReturnType<typeof startOutageStack>>;
  let page: WidgetPage;
  beforeAll(async () => {
    stack = await startOutageStack();
    page = await openWidget(stack.bff.server.url, 'shop-pay');
  });
  afterAll(async () => {
    stack?.redis.resume();
    await stack?.bff.server.close();
    await stack?.redis.stop();
  });

  it('refuses within the command timeout, and a create refused meanwhile succeeds once when retried', async () => {
    const { bff, redis, store, storeLogs, readyAfresh } = stack;
    const offerId = await firstOffer(page);
    const quote = await newQuote(page, offerId);
    expect(quote.status).toBe(201);
    // Sessions that have read nothing yet: a first read reserves the session's share of its limit in the store.
    const unread = await Promise.all(Array.from({ length: 3 }, () => openWidget(bff.server.url, 'shop-pay')));
    const checkoutKey = newKey();
    const checkout = () =>
      page.post(
        '/v1/checkouts',
        { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
        { 'Idempotency-Key': checkoutKey },
      );

    await eventually(async () => ((await store.ping()) ? true : undefined), 5_000);
    refusalsSeen = 0;
    const since = logMark(bff, storeLogs);
    redis.pause();
    const timings: number[] = [];
    try {
      // Each round's three requests wait for the frozen Redis side by side, each refused within its own bound.
      for (const fresh of unread) {
        timings.push(
          ...(await Promise.all([
            refused(() => tally(newQuote(page, offerId))),
            refused(() => tally(fresh.get('/v1/destinations'))),
            refused(() => tally(checkout())),
          ])),
        );
      }
      await eventually(async () => ((await readiness(bff)) === 503 ? true : undefined), 8_000);
    } finally {
      redis.resume();
    }

    await eventually(async () => ((await newSession(bff)).status === 201 ? true : undefined), 5_000);
    // The refused attempts left nothing behind (no idempotency lock, no taken quote): the retry makes the checkout.
    // A busy machine may still refuse a retry (a command past its short timeout): it is retried as a client would.
    const created = await eventually(async () => {
      const answer = await checkout();
      return answer.status === 503 ? undefined : answer;
    }, 5_000);
    expect(created.status, created.text).toBe(201);
    const replay = await checkout();
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.data.id).toBe(created.body.data.id);
    await eventually(async () => ((await readyAfresh()) === 200 ? true : undefined), 8_000);
    expectRefusalsLogged(since);
    console.info(`Redis frozen: ${timings.length} refusals, slowest ${Math.round(Math.max(...timings))} ms`);
  }, 40_000);
});

describe('the Redis store while Redis is away', () => {
  let redis: RunningRedis;
  let store: Store;
  beforeAll(async () => {
    redis = await startRedisServer();
    store = createRedisStore({
      url: redis.url,
      keyPrefix: `late-${randomBytes(4).toString('hex')}:`,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
    });
    expect(await store.insert('warm', 'up', 60_000)).toBe(true);
    expect(await store.queue('late').add({ id: 'warm', partition: 'p', dueAtMs: 0 })).toBe(true);
  });
  afterAll(async () => {
    redis?.resume();
    await store?.close();
    await redis?.stop();
  });

  it('fails with StoreUnavailableError, and a write that reaches a frozen Redis late does not apply', async () => {
    redis.pause();
    try {
      // Sent side by side, each waits out the command timeout on the frozen connection and fails on its own.
      await Promise.all([
        expect(store.insert('late', 'value', 60_000)).rejects.toBeInstanceOf(StoreUnavailableError),
        expect(store.increment('late-counter', 1, 60_000)).rejects.toBeInstanceOf(StoreUnavailableError),
        expect(store.queue('late').add({ id: 'late', partition: 'p', dueAtMs: 0 })).rejects.toBeInstanceOf(
          StoreUnavailableError,
        ),
        expect(store.queue('late').remove('warm')).rejects.toBeInstanceOf(StoreUnavailableError),
        expect(store.get('warm')).rejects.toBeInstanceOf(StoreUnavailableError),
        expect(store.ping()).resolves.toBe(false),
      ]);
      // Redis receives the writes when it thaws, long after their callers gave up.
      await new Promise((resolve) => setTimeout(resolve, 2 * COMMAND_TIMEOUT_MS));
    } finally {
      redis.resume();
    }
    await eventually(async () => ((await store.ping()) ? true : undefined), 5_000);
    expect(await store.get('late')).toBeNull();
    expect((await store.increment('late-counter', 1, 60_000)).count).toBe(1);
    expect(await store.get('warm')).toEqual({ value: 'up', version: 1 });
    expect(await store.queue('late').get('late')).toBeNull();
    expect(await store.queue('late').get('warm')).toEqual({ id: 'warm', partition: 'p', dueAtMs: 0 });
  }, 20_000);

  it('fails at once while Redis is gone', async () => {
    await redis.stop();
    try {
      const started = performance.now();
      await expect(store.insert('gone', 'value', 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(performance.now() - started).toBeLessThan(FAST_MS / 2);
    } finally {
      await redis.restart();
    }
    await eventually(async () => ((await store.ping()) ? true : undefined), 5_000);
    expect(await store.insert('gone', 'value', 60_000)).toBe(true);
  }, 20_000);
});
