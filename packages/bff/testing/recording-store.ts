/**
 * @module
 * Test support: the memory store with a window on what it holds — every live entry (key, value, version) and a
 * journal of every write — so that a test can tell what a request stored, for example that a refused request
 * stored nothing. The BFF's runtime never uses it: it wraps `createMemoryStore`, whose production code stays
 * without a way to list its keys.
 */
import { createMemoryStore } from '../src/store/memory-store';
import type { Store } from '../src/store/store';

/** One write the store was asked for: its operation, its key, and whether it changed anything. */
export interface StoreWrite {
  op: string;
  key: string;
  /** False when the store refused it (an insert on a taken key, a compare-and-set on another version). */
  applied: boolean;
}

/** A live entry as `version:value`, by key (counters apart: they count refusals too). */
export type StoreSnapshot = ReadonlyMap<string, string>;

/** The memory store, listing what it holds. */
export interface RecordingStore extends Store {
  /** Every live entry now (expired ones left out). */
  snapshot(): StoreSnapshot;
  /** Every write so far, oldest first (counter increments included, as `increment`). */
  readonly journal: readonly StoreWrite[];
}

/** The keys added, removed or changed from `before` to `after` (empty: the same entries). */
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

interface MirroredEntry {
  value: string;
  version: number;
  expiresAt: number;
}

/**
 * A memory store that records its writes and mirrors its entries as they are written. Operations the
 * {@link Store} interface gains later pass through unmirrored but journaled (by name and first argument), so a
 * test sees them too.
 */
export function createRecordingStore(now: () => number = Date.now): RecordingStore {
  const inner = createMemoryStore({ now });
  const entries = new Map<string, MirroredEntry>();
  const journal: StoreWrite[] = [];
  const record = (op: string, key: string, applied: boolean) => journal.push({ op, key, applied });

  const recording: RecordingStore = {
    journal,
    snapshot() {
      const time = now();
      const live = new Map<string, string>();
      for (const [key, entry] of entries) {
        if (entry.expiresAt > time) live.set(key, `${entry.version}:${entry.value}`);
      }
      return live;
    },
    get: (key) => inner.get(key),
    async insert(key, value, ttlMs) {
      const applied = await inner.insert(key, value, ttlMs);
      if (applied) entries.set(key, { value, version: 1, expiresAt: now() + ttlMs });
      record('insert', key, applied);
      return applied;
    },
    async compareAndSet(key, expectedVersion, value, ttlMs) {
      const applied = await inner.compareAndSet(key, expectedVersion, value, ttlMs);
      if (applied) entries.set(key, { value, version: expectedVersion + 1, expiresAt: now() + ttlMs });
      record('compareAndSet', key, applied);
      return applied;
    },
    async compareAndDelete(key, expectedVersion) {
      const applied = await inner.compareAndDelete(key, expectedVersion);
      if (applied) entries.delete(key);
      record('compareAndDelete', key, applied);
      return applied;
    },
    async increment(key, by, windowMs) {
      const state = await inner.increment(key, by, windowMs);
      record('increment', key, true);
      return state;
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  // Operations added to the interface after this file: passed through to the memory store and journaled.
  return new Proxy(recording, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !(name in target) && name in inner) {
        const operation = (inner as unknown as Record<string, unknown>)[name];
        if (typeof operation !== 'function') return operation;
        return (...args: unknown[]) => {
          record(name, String(args[0]), true);
          return (operation as (...values: unknown[]) => unknown).apply(inner, args);
        };
      }
      return Reflect.get(target, name, receiver);
    },
  });
}
