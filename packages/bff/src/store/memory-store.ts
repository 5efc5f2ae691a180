/**
 * @module
 * State in this process's memory, expired entries swept in the background: the store of unit tests and of
 * `createBff` when none is given. Never a running BFF's default — a restart loses everything; a process keeps
 * its state in the embedded store or in Redis (`store-from-environment.ts`).
 */
import { createBackgroundLoop } from '../background-loop';
import { createMemoryEntryBooks } from './memory-entry-book';
import { createMemorySortedIndex } from './memory-sorted-index';
import { createMemoryWorkQueue } from './memory-work-queue';
import type { CounterState, Store, Versioned } from './store';

interface Entry {
  value: string;
  version: number;
  expiresAt: number;
}

interface Counter {
  count: number;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  /** How often expired entries are swept (they are also ignored when read). */
  sweepIntervalMs?: number;
  /** The clock, replaceable in tests. */
  now?: () => number;
}

/** A {@link Store} in memory, whose whole contents can be listed. */
export interface MemoryStore extends Store {
  /**
   * Every live key with its value and version, every live counter with its count, every live member of every
   * sorted index with its score and every item of every work queue, in key order: what a test compares before and
   * after a request that must change nothing.
   */
  contents(): Promise<Map<string, string>>;
}

/** A {@link Store} in memory. */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const { sweepIntervalMs, now } = { sweepIntervalMs: 30_000, now: Date.now, ...options };
  const entries = new Map<string, Entry>();
  const counters = new Map<string, Counter>();
  const queues = new Map<string, ReturnType<typeof createMemoryWorkQueue>>();
  const indexes = new Map<string, ReturnType<typeof createMemorySortedIndex>>();
  const books = createMemoryEntryBooks();

  const sweeper = createBackgroundLoop(
    async function sweepExpired() {
      const time = now();
      for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
      for (const [key, counter] of counters) if (counter.expiresAt <= time) counters.delete(key);
      for (const index of indexes.values()) index.sweep();
    },
    { intervalMs: sweepIntervalMs },
  );
  sweeper.start();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  return {
    async get(key): Promise<Versioned | null> {
      const entry = live(key);
      return entry === undefined ? null : { value: entry.value, version: entry.version };
    },
    async insert(key, value, ttlMs) {
      if (live(key) !== undefined) return false;
      entries.set(key, { value, version: 1, expiresAt: now() + ttlMs });
      return true;
    },
    async compareAndSet(key, expectedVersion, value, ttlMs) {
      const entry = live(key);
      if (entry === undefined || entry.version !== expectedVersion) return false;
      entries.set(key, { value, version: entry.version + 1, expiresAt: now() + ttlMs });
      return true;
    },
    async compareAndDelete(key, expectedVersion) {
      const entry = live(key);
      if (entry === undefined || entry.version !== expectedVersion) return false;
      entries.delete(key);
      return true;
    },
    async increment(key, by, windowMs): Promise<CounterState> {
      const time = now();
      let counter = counters.get(key);
      if (counter === undefined || counter.expiresAt <= time) {
        counter = { count: 0, expiresAt: time + windowMs };
        counters.set(key, counter);
      }
      counter.count += by;
      return { count: counter.count, resetInMs: counter.expiresAt - time };
    },
    async contents() {
      const time = now();
      const listed: [string, string][] = [];
      for (const [key, entry] of entries)
        if (entry.expiresAt > time) listed.push([key, `v${entry.version} ${entry.value}`]);
      for (const [key, counter] of counters)
        if (counter.expiresAt > time) listed.push([`counter ${key}`, String(counter.count)]);
      for (const [name, index] of indexes)
        for (const entry of index.live())
          listed.push([`index ${name} ${entry.member}`, `score ${entry.score}`]);
      listed.push(...books.listed());
      for (const [name, queue] of queues) {
        let cursor: string | null = null;
        do {
          const page = await queue.scan(cursor, 100);
          for (const item of page.items)
            listed.push([`queue ${name} ${item.id}`, `${item.partition} due ${item.dueAtMs}`]);
          cursor = page.cursor;
        } while (cursor !== null);
      }
      return new Map(listed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
    queue(name) {
      let queue = queues.get(name);
      if (queue === undefined) {
        queue = createMemoryWorkQueue(now);
        queues.set(name, queue);
      }
      return queue;
    },
    sortedIndex(name) {
      let index = indexes.get(name);
      if (index === undefined) {
        index = createMemorySortedIndex(now);
        indexes.set(name, index);
      }
      return index;
    },
    entryBook: (name) => books.book(name),
    async scanKeys(prefix, cursor, count) {
      // The memory store serves tests: sorting its keys per page is fine here.
      const time = now();
      const keys = [...entries]
        .filter(
          ([key, entry]) =>
            key.startsWith(prefix) && entry.expiresAt > time && (cursor === null || key > cursor),
        )
        .map(([key]) => key)
        .sort()
        .slice(0, count);
      return { keys, cursor: keys.length < count ? null : (keys.at(-1) ?? null) };
    },
    async ping() {
      return true;
    },
    async close() {
      await sweeper.close();
      entries.clear();
      counters.clear();
      for (const queue of queues.values()) queue.clear();
      indexes.clear();
      books.clear();
    },
  };
}
