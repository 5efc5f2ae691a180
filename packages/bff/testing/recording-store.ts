/**
 * @module
 * Test support: the memory store with a journal of every write it is asked for (keys and work queues), beside
 * its listing of what it holds (`contents`), so that a test can tell what a request stored — for example that a
 * refused request stored nothing — and when background work has gone quiet.
 */
import { createMemoryStore, type MemoryStore } from '../src/store/memory-store';
import type { WorkQueue } from '../src/store/work-queue';

/** One write the store was asked for: its operation, its key (or queue and item), whether it changed anything. */
export interface StoreWrite {
  op: string;
  key: string;
  /** False when the store refused it (an insert on a taken key, a compare-and-set on another version). */
  applied: boolean;
}

/** What the store holds, as `contents()` lists it, counters left out (they count refusals too). */
export type StoreSnapshot = ReadonlyMap<string, string>;

/** The memory store, journaling its writes. */
export interface RecordingStore extends MemoryStore {
  /** Every live entry and queue item now, without the counters. */
  snapshot(): Promise<StoreSnapshot>;
  /** Every write so far, oldest first (counter increments included, as `increment`). */
  readonly journal: readonly StoreWrite[];
}

/** The keys added, removed or changed from `before` to `after` (empty: the same contents). */
export function snapshotChanges(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const changes: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) changes.push(`added ${key}`);
    else if (old !== value) changes.push(`changed ${key}`);
  }
  for (const key of before.keys()) if (!after.has(key)) changes.push(`removed ${key}`);
  return changes;
}

/** The operations of a work queue that change it. */
const QUEUE_WRITES = new Set(['add', 'claim', 'reschedule', 'pausePartition', 'remove']);

/** A memory store that journals every write. */
export function createRecordingStore(now: () => number = Date.now): RecordingStore {
  const inner = createMemoryStore({ now });
  const journal: StoreWrite[] = [];
  const record = (op: string, key: string, applied: boolean) => journal.push({ op, key, applied });
  const queues = new Map<string, WorkQueue>();

  /** The queue with its writes journaled as `queue.<op>` on `queue <name> <id or partition>`. */
  function journaled(name: string, queue: WorkQueue): WorkQueue {
    return new Proxy(queue, {
      get(target, operation, receiver) {
        const value = Reflect.get(target, operation, receiver);
        if (typeof operation !== 'string' || !QUEUE_WRITES.has(operation) || typeof value !== 'function')
          return value;
        return (...args: unknown[]) => {
          const first = args[0];
          const subject =
            typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : first;
          record(`queue.${operation}`, `queue ${name} ${String(subject)}`, true);
          return (value as (...values: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  return {
    journal,
    async snapshot() {
      const contents = await inner.contents();
      return new Map([...contents].filter(([key]) => !key.startsWith('counter ')));
    },
    contents: () => inner.contents(),
    get: (key) => inner.get(key),
    async insert(key, value, ttlMs) {
      const applied = await inner.insert(key, value, ttlMs);
      record('insert', key, applied);
      return applied;
    },
    async compareAndSet(key, expectedVersion, value, ttlMs) {
      const applied = await inner.compareAndSet(key, expectedVersion, value, ttlMs);
      record('compareAndSet', key, applied);
      return applied;
    },
    async compareAndDelete(key, expectedVersion) {
      const applied = await inner.compareAndDelete(key, expectedVersion);
      record('compareAndDelete', key, applied);
      return applied;
    },
    async increment(key, by, windowMs) {
      const state = await inner.increment(key, by, windowMs);
      record('increment', key, true);
      return state;
    },
    queue(name) {
      let queue = queues.get(name);
      if (queue === undefined) {
        queue = journaled(name, inner.queue(name));
        queues.set(name, queue);
      }
      return queue;
    },
    sortedIndex(name) {
      const index = inner.sortedIndex(name);
      return {
        async add(member, score, ttlMs) {
          await index.add(member, score, ttlMs);
          record('index.add', `index ${name} ${member}`, true);
        },
        async remove(member) {
          await index.remove(member);
          record('index.remove', `index ${name} ${member}`, true);
        },
        range: (range) => index.range(range),
      };
    },
    entryBook(name) {
      const book = inner.entryBook(name);
      return {
        read: (query) => book.read(query),
        async change(change) {
          const view = await book.change(change);
          record('book.change', `book ${name} ${change.id}`, view !== null);
          return view;
        },
      };
    },
    scanKeys: (prefix, cursor, count) => inner.scanKeys(prefix, cursor, count),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}
