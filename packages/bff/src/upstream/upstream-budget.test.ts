/**
 * The upstream key's budget on the memory store with a fixed clock: shares of sales, background, addresses,
 * sessions and widgets; refusals before any call, counters that count calls made; a 429's pause shared by
 * instances; the limit the upstream states.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS, type Store, StoreUnavailableError } from '../store/store';
import {
  createUpstreamBudget,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  type UpstreamBudgetGate,
} from './upstream-budget';
import { runForUpstreamCaller, type UpstreamCaller } from './upstream-caller';

const logger = createLogger({ level: 'error', write: () => undefined });
/** 10 s into a minute of the clock. */
const START = 1_800_000_000_000 - (1_800_000_000_000 % 60_000) + 10_000;
let time = START;
const now = () => time;
let store: Store;

beforeEach(() => {
  time = START;
  store = createMemoryStore({ now });
});
afterEach(async () => {
  await store.close();
});

function budgetOf(options: { limit?: number; widgetsOnKey?: number } = {}) {
  return createUpstreamBudget({
    store,
    credential: 'cred-1',
    configuredLimit: options.limit,
    widgetsOnKey: options.widgetsOnKey ?? 1,
    logger,
    now,
  });
}

type Caller = Omit<UpstreamCaller, 'admitted'>;
const traveller = (address: string, sessionId: string | null = null): Caller => ({
  kind: 'traveller',
  address,
  sessionId,
});
const partner: Caller = { kind: 'partner', address: null, sessionId: null };

/** One request of `caller` making `calls` upstream calls; the refusal, if any. */
async function request(gate: UpstreamBudgetGate, caller: Caller | null, calls = 1): Promise<ApiError | null> {
  const run = async () => {
    for (let index = 0; index < calls; index += 1) await gate.beforeCall();
    return null;
  };
  try {
    return caller === null ? await run() : await runForUpstreamCaller(caller, run);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** A new traveller at each call: a new address, or a new session at one address. */
function fresh(make: (index: number) => Caller): () => Caller {
  let index = 0;
  return () => {
    index += 1;
    return make(index);
  };
}

/** How many requests of one call each pass before the first refusal (at most `max`). */
async function passed(gate: UpstreamBudgetGate, caller: () => Caller | null, max: number) {
  for (let count = 0; count < max; count += 1) {
    if ((await request(gate, caller())) !== null) return count;
  }
  return max;
}

/** The count of one of the minute's counters. */
async function counted(name: string): Promise<number> {
  const minute = Math.floor(time / 60_000);
  return (await store.increment(STORE_KEYS.counter(`upstream:cred-1:${minute}:${name}`), 0, 60_000)).count;
}

describe('the upstream budget of one key', () => {
  it('gives background work its share and never the minute last share, and sales the rest', async () => {
    const gate = budgetOf({ limit: 100 }).gate('shop');
    expect(await passed(gate, () => null, 50)).toBe(20);
    const refusal = await request(gate, null);
    expect(refusal).toMatchObject({ code: 'rate_limited', status: 429, params: { share: 'background' } });
    // Sales are not held back by the spent background share: the key's other 80 calls are theirs.
    const sales = await passed(
      gate,
      fresh((index) => traveller(`198.51.100.${index}`)),
      100,
    );
    expect(sales).toBe(80);
    expect(await counted('all')).toBe(100);
  });

  it('stops background work before the minute last share even when its own share is left', async () => {
    const gate = budgetOf({ limit: 100 }).gate('shop');
    for (let index = 0; index < 80; index += 1) expect(await request(gate, partner)).toBeNull();
    expect(await request(gate, null)).toMatchObject({
      code: 'rate_limited',
      params: { share: 'background' },
    });
    expect(await request(gate, partner)).toBeNull();
  });

  it('refuses an address over its share, before the call, with the wait until the minute ends', async () => {
    const gate = budgetOf().gate('shop');
    const flood = fresh((index) => traveller('198.51.100.7', `ses_${index}`));
    expect(await passed(gate, flood, 500)).toBe(60);
    const refusal = await request(gate, flood());
    expect(refusal).toMatchObject({
      code: 'rate_limited',
      params: { share: 'address' },
      retryAfterSeconds: 50,
    });
    // Refused calls are not counted: the key's minute holds the 60 calls made, not the attempts.
    expect(await counted('all')).toBe(60);
    expect(await counted('address:198.51.100.7')).toBe(60);
    // Another address buys as before.
    expect(await request(gate, traveller('203.0.113.20', 'ses_other'))).toBeNull();
  });

  it('refuses a session over its share, and lets a request already let through finish', async () => {
    const gate = budgetOf().gate('shop');
    expect(await passed(gate, () => traveller('198.51.100.7', 'ses_a'), 100)).toBe(30);
    expect(await request(gate, traveller('198.51.100.7', 'ses_a'))).toMatchObject({
      params: { share: 'session' },
    });
    // A request whose first call passed makes its later calls (an account read, then the order) whatever its share.
    expect(await request(gate, traveller('198.51.100.8', 'ses_b'), 45)).toBeNull();
    expect(await counted('session:ses_b')).toBe(45);
  });

  it('never lets the key go over its limit, whoever calls', async () => {
    const gate = budgetOf({ limit: 70 }).gate('shop');
    expect(await request(gate, traveller('198.51.100.8', 'ses_b'), 70)).toBeNull();
    expect(await request(gate, partner)).toMatchObject({ code: 'rate_limited', params: { share: 'key' } });
    expect(await request(gate, traveller('198.51.100.9', 'ses_c'))).toMatchObject({
      params: { share: 'key' },
    });
    time += 50_000;
    expect(await request(gate, partner)).toBeNull();
  });

  it('gives each widget of a shared key at most its share', async () => {
    const budget = budgetOf({ widgetsOnKey: 3 });
    const many = fresh((index) => traveller(`198.51.100.${index % 250}`, `ses_${index}`));
    expect(await passed(budget.gate('shop'), many, 400)).toBe(300);
    expect(await request(budget.gate('shop'), many())).toMatchObject({ params: { share: 'widget' } });
    expect(await request(budget.gate('shop-pay'), many())).toBeNull();
  });

  it('pauses the key for every instance for a 429 Retry-After', async () => {
    const one = budgetOf().gate('shop');
    const two = budgetOf().gate('shop-pay');
    await one.afterAnswer({ status: 429, retryAfterMs: 7_000 });
    for (const gate of [one, two]) {
      expect(await request(gate, traveller('203.0.113.20', 'ses_a'))).toMatchObject({
        code: 'rate_limited',
        params: { share: 'paused' },
        retryAfterSeconds: 7,
      });
      expect(await request(gate, null)).toMatchObject({ params: { share: 'paused' } });
    }
    expect(await counted('all')).toBe(0);
    time += 7_000;
    expect(await request(two, traveller('203.0.113.20', 'ses_a'))).toBeNull();
  });

  it('takes the limit the upstream states, lower than the configured one, while it states it', async () => {
    const budget = budgetOf({ limit: 500 });
    expect(budgetOf().limitPerMinute()).toBe(DEFAULT_RATE_LIMIT_PER_MINUTE);
    expect(budget.limitPerMinute()).toBe(500);
    const gate = budget.gate('shop');
    await gate.afterAnswer({ status: 200, statedLimit: 40 });
    expect(budget.limitPerMinute()).toBe(40);
    expect(await request(gate, partner, 40)).toBeNull();
    expect(await request(gate, partner)).toMatchObject({ params: { share: 'key' } });
    await gate.afterAnswer({ status: 200, statedLimit: 5_000 });
    expect(budget.limitPerMinute()).toBe(500);
    await gate.afterAnswer({ status: 200 });
    expect(budget.limitPerMinute()).toBe(500);
    // Without a configured limit the upstream's word is the limit, higher than the default too.
    const unconfigured = budgetOf();
    await unconfigured.gate('shop').afterAnswer({ status: 200, statedLimit: 5_000 });
    expect(unconfigured.limitPerMinute()).toBe(5_000);
  });

  it('lets calls through uncounted while the store is away, and refuses again once it is back', async () => {
    const away = new StoreUnavailableError('the store is away');
    const outage: Store = {
      ...store,
      increment: () => Promise.reject(away),
      get: () => Promise.reject(away),
    };
    const budget = createUpstreamBudget({
      store: outage,
      credential: 'cred-1',
      widgetsOnKey: 1,
      logger,
      now,
    });
    expect(await request(budget.gate('shop'), traveller('198.51.100.7', 'ses_a'), 100)).toBeNull();
    expect(await request(budget.gate('shop'), null, 200)).toBeNull();
    expect(await passed(budgetOf().gate('shop'), () => traveller('198.51.100.7'), 100)).toBe(60);
  });

  it('starts again with each minute of the clock', async () => {
    const gate = budgetOf().gate('shop');
    expect(await passed(gate, () => traveller('198.51.100.7'), 100)).toBe(60);
    time += 50_000;
    expect(await passed(gate, () => traveller('198.51.100.7'), 100)).toBe(60);
  });
});
