/**
 * @module
 * The store, counting its failed operations (`bff_store_errors_total`): a decorator over either store, so
 * the memory and Redis stores stay as they are. A failure is counted and rethrown unchanged.
 */
import type { Counter } from 'prom-client';
import type { Store } from '../store/store';
import type { WorkQueue } from '../store/work-queue';

/** `store`, with each rejected operation (and a failed ping) counted by operation name. */
export function countingStoreErrors(store: Store, errors: Counter<'operation'>): Store {
  const counted = <A extends unknown[], R>(operation: string, run: (...args: A) => Promise<R>) => {
    const failures = errors.labels(operation);
    return (...args: A): Promise<R> =>
      run(...args).catch((error: unknown) => {
        failures.inc();
        throw error;
      });
  };
  const pingFailures = errors.labels('ping');
  const queues = new Map<string, WorkQueue>();
  function countedQueue(queue: WorkQueue): WorkQueue {
    return {
      add: counted('queue.add', (item) => queue.add(item)),
      claim: counted('queue.claim', (nowMs, options) => queue.claim(nowMs, options)),
      reschedule: counted('queue.reschedule', (id, dueAtMs) => queue.reschedule(id, dueAtMs)),
      pausePartition: counted('queue.pausePartition', (partition, untilMs) =>
        queue.pausePartition(partition, untilMs),
      ),
      remove: counted('queue.remove', (id) => queue.remove(id)),
      get: counted('queue.get', (id) => queue.get(id)),
      stats: counted('queue.stats', () => queue.stats()),
      scan: counted('queue.scan', (cursor, count) => queue.scan(cursor, count)),
    };
  }
  return {
    get: counted('get', (key) => store.get(key)),
    insert: counted('insert', (key, value, ttlMs) => store.insert(key, value, ttlMs)),
    compareAndSet: counted('compareAndSet', (key, expectedVersion, value, ttlMs) =>
      store.compareAndSet(key, expectedVersion, value, ttlMs),
    ),
    compareAndDelete: counted('compareAndDelete', (key, expectedVersion) =>
      store.compareAndDelete(key, expectedVersion),
    ),
    increment: counted('increment', (key, by, windowMs) => store.increment(key, by, windowMs)),
    ...(store.confirmReplicated === undefined
      ? {}
      : {
          confirmReplicated: counted(
            'confirmReplicated',
            (key: string) => store.confirmReplicated?.(key) ?? Promise.resolve(),
          ),
        }),
    queue(name) {
      let queue = queues.get(name);
      if (queue === undefined) {
        queue = countedQueue(store.queue(name));
        queues.set(name, queue);
      }
      return queue;
    },
    sortedIndex(name) {
      const index = store.sortedIndex(name);
      return {
        add: counted('index.add', (member, score, ttlMs) => index.add(member, score, ttlMs)),
        remove: counted('index.remove', (member) => index.remove(member)),
        range: counted('index.range', (range) => index.range(range)),
      };
    },
    entryBook(name) {
      const book = store.entryBook(name);
      return {
        read: counted('book.read', (query) => book.read(query)),
        change: counted('book.change', (change) => book.change(change)),
      };
    },
    scanKeys: counted('scanKeys', (prefix, cursor, count) => store.scanKeys(prefix, cursor, count)),
    ...(store.compact === undefined
      ? {}
      : { compact: counted('compact', () => store.compact?.() ?? Promise.resolve()) }),
    async ping() {
      const up = await store.ping();
      if (!up) pingFailures.inc();
      return up;
    },
    close: () => store.close(),
  };
}
