/**
 * The store contract, run against the memory store, the embedded store (SQLite, in a temporary data directory)
 * and a real `redis-server`. Expiry is seen by letting time pass: the memory and embedded stores read a clock the
 * test moves on; Redis expires keys on its own clock, so its tests wait in real time, side by side.
 */
import { describe, expect, it } from 'vitest';
import { storesUnderTest } from '../../testing/store-kinds';
import { createMemoryStore } from './memory-store';
import { createRedisStore } from './redis-store';
import type { Store } from './store';

const stores = storesUnderTest('store');

/** How a test lets time pass for a store: a clock it reads, or (Redis) real time. */
interface StoreTime {
  /** The clock the store is made with, when it takes one. */
  now?: () => number;
  pass(ms: number): Promise<void>;
}

/** A clock that stands still until the test moves it on. */
function steppedTime(): StoreTime {
  let time = Date.now();
  return {
    now: () => time,
    async pass(ms) {
      time += ms;
    },
  };
}

const realTime = (): StoreTime => ({
  pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

// Concurrent: every test has its own store (or index), so Redis's real-time waits overlap.
describe.concurrent.each(stores.kinds)('%s store', (_name, kind) => {
  /** A store of its own for one test, and how that test lets time pass for it. */
  function timedStore(): { s: Store; time: StoreTime } {
    const time = kind.readsClock ? steppedTime() : realTime();
    return { s: kind.open(time.now).store, time };
  }
  const store = () => timedStore().s;

  it('inserts once, reads the value and version, and expires it', async () => {
    const { s, time } = timedStore();
    expect(await s.insert('a', 'one', 1_000)).toBe(true);
    expect(await s.insert('a', 'two', 1_000)).toBe(false);
    expect(await s.get('a')).toEqual({ value: 'one', version: 1 });
    await time.pass(1_100);
    expect(await s.get('a')).toBeNull();
    expect(await s.insert('a', 'three', 1000)).toBe(true);
  });

  it('compare-and-set moves the version on and refuses a stale one', async () => {
    const s = store();
    await s.insert('c', 'placing?', 10_000);
    expect(await s.compareAndSet('c', 1, 'placing', 10_000)).toBe(true);
    expect(await s.compareAndSet('c', 1, 'placing again', 10_000)).toBe(false);
    expect(await s.get('c')).toEqual({ value: 'placing', version: 2 });
    expect(await s.compareAndSet('missing', 1, 'x', 10_000)).toBe(false);
  });

  it('lets exactly one of many concurrent compare-and-sets win', async () => {
    const s = store();
    await s.insert('race', 'awaiting_payment', 10_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => s.compareAndSet('race', 1, `winner ${index}`, 10_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('compare-and-delete only deletes the expected version', async () => {
    const s = store();
    await s.insert('d', 'x', 10_000);
    expect(await s.compareAndDelete('d', 2)).toBe(false);
    expect(await s.compareAndDelete('d', 1)).toBe(true);
    expect(await s.get('d')).toBeNull();
  });

  it('counts in a fixed window and starts again after it', async () => {
    const { s, time } = timedStore();
    expect((await s.increment('n', 1, 1_000)).count).toBe(1);
    const second = await s.increment('n', 2, 1_000);
    expect(second.count).toBe(3);
    expect(second.resetInMs).toBeGreaterThan(0);
    expect(second.resetInMs).toBeLessThanOrEqual(1_000);
    await time.pass(1_100);
    expect((await s.increment('n', 1, 1_000)).count).toBe(1);
  });

  it('pages a sorted index by keyset, newest first, while members arrive', async () => {
    const index = store().sortedIndex(`list-${Math.random()}`);
    // Two members share each score, so a page boundary falls between equal scores too.
    for (let at = 0; at < 30; at += 1)
      await index.add(`m${String(at).padStart(2, '0')}`, Math.floor(at / 2), 60_000);
    const seen: string[] = [];
    let after = null as { member: string; score: number } | null;
    for (let page = 0; page < 20; page += 1) {
      const entries = await index.range({ fromScore: -Infinity, toScore: Infinity, after, limit: 7 });
      seen.push(...entries.map((entry) => entry.member));
      // Newer members arriving meanwhile sort above the pages already read: never seen here, none shifted.
      await index.add(`new${page}`, 1_000 + page, 60_000);
      if (entries.length < 7) break;
      after = entries.at(-1) ?? null;
    }
    const expected = Array.from({ length: 30 }, (_, at) => `m${String(29 - at).padStart(2, '0')}`);
    // Equal scores read in descending member order: m29 (score 14) before m28 (score 14).
    expect(seen).toEqual(expected);
  });

  it('reads a score range, moves and removes members, and expires them', async () => {
    const { s, time } = timedStore();
    const index = s.sortedIndex(`range-${Math.random()}`);
    await index.add('a', 100, 60_000);
    await index.add('b', 200, 60_000);
    await index.add('c', 300, 60_000);
    await index.add('short', 250, 300);
    const all = { fromScore: -Infinity, toScore: Infinity, after: null, limit: 10 };
    expect(await index.range({ ...all, fromScore: 150, toScore: 300 })).toEqual([
      { member: 'c', score: 300 },
      { member: 'short', score: 250 },
      { member: 'b', score: 200 },
    ]);
    await index.add('a', 400, 60_000);
    await index.remove('b');
    await index.remove('missing');
    await time.pass(400);
    expect((await index.range(all)).map((entry) => entry.member)).toEqual(['a', 'c']);
    expect(await index.range({ ...all, after: { member: 'c', score: 300 } })).toEqual([]);
  });

  it('scans the keys of a prefix page by page', async () => {
    const s = store();
    for (let at = 0; at < 25; at += 1) await s.insert(`scanned:${at}`, 'x', 60_000);
    await s.insert('other:1', 'x', 60_000);
    const keys = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 100; page += 1) {
      const answer: { keys: string[]; cursor: string | null } = await s.scanKeys('scanned:', cursor, 10);
      for (const key of answer.keys) keys.add(key);
      cursor = answer.cursor;
      if (cursor === null) break;
    }
    expect([...keys].sort()).toEqual(Array.from({ length: 25 }, (_, at) => `scanned:${at}`).sort());
  });

  it('answers ping', async () => {
    expect(await store().ping()).toBe(true);
  });
});

describe('redis store across two clients', () => {
  it('shares state and compare-and-set between instances', async () => {
    const prefix = `shared-${Math.random()}:`;
    const one = stores.kept(createRedisStore({ url: stores.redis().url, keyPrefix: prefix }));
    const two = stores.kept(createRedisStore({ url: stores.redis().url, keyPrefix: prefix }));
    await one.insert('checkout:x', 'awaiting_payment', 10_000);
    const [a, b] = await Promise.all([
      one.compareAndSet('checkout:x', 1, 'placing by one', 10_000),
      two.compareAndSet('checkout:x', 1, 'placing by two', 10_000),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((await two.increment('counter:ip', 1, 60_000)).count).toBe(1);
    expect((await one.increment('counter:ip', 1, 60_000)).count).toBe(2);
  });
});

describe('the memory store’s contents', () => {
  it('lists every live key, counter, index member and queue item, and forgets the expired ones', async () => {
    const time = steppedTime();
    const store = stores.kept(createMemoryStore({ now: time.now }));
    await store.insert('checkout:chk_1', 'one', 60_000);
    await store.increment('counter:reads', 1, 60_000);
    const index = store.sortedIndex('partner-checkouts:acme');
    await index.add('chk_1', 10, 60_000);
    await index.add('chk_2', 20, 1_000);
    await store.queue('webhooks').add({ id: 'evt_1', partition: 'acme', dueAtMs: 5 });
    expect([...(await store.contents()).keys()]).toEqual([
      'checkout:chk_1',
      'counter counter:reads',
      'index partner-checkouts:acme chk_1',
      'index partner-checkouts:acme chk_2',
      'queue webhooks evt_1',
    ]);
    expect((await store.contents()).get('index partner-checkouts:acme chk_2')).toBe('score 20');
    await time.pass(1_000);
    await index.remove('chk_1');
    expect([...(await store.contents()).keys()].filter((key) => key.startsWith('index '))).toEqual([]);
  });
});
