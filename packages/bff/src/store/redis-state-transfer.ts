/**
 * @module
 * The Redis store's state as export records and back (see `state-transfer.ts`), in the Redis store's layout
 * (`redis-store.ts`): a value is a hash of `value` and `version` with a TTL, a counter a number with a TTL.
 * Keys are read with `SCAN` a page at a time (on each primary of a cluster: `redis-scan.ts`), so an export runs
 * beside live instances without blocking Redis.
 * Work-queue items are read and written through the store's own queues (`WorkQueue.scan`, `add`); a queue's
 * partition pauses (a dead endpoint's short backoff) are not exported: after a move, such an endpoint is tried
 * again at once and paused again if still down.
 */
import { BOOK_RETENTION_MS, bookNameOf, redisBookKeys } from './redis-entry-book';
import { scanKeyspace, whenReady } from './redis-scan';
import { DEFAULT_REDIS_KEY_PREFIX } from './redis-store';
import { type RedisTarget, redisClient } from './redis-target';
import { emptyCounts, type ImportCounts, type StateRecord, type StateTransfer } from './state-transfer';
import { isIndexBuildKey, type Store } from './store';
import { QUEUE_NAMES, type QueueItem } from './work-queue';

/** Write a value with its version and TTL, only if the key is free. */
const RESTORE_ENTRY = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Write a book whole, only if none of its keys exists (its totals must stay the sum of its entries). */
const RESTORE_BOOK = `
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then return 0 end
end
local book = cjson.decode(ARGV[1])
for id, value in pairs(book.entries) do redis.call('HSET', KEYS[1], id, value) end
for name, value in pairs(book.totals) do redis.call('HSET', KEYS[2], name, string.format('%d', value)) end
for id, at in pairs(book.deadlines) do redis.call('ZADD', KEYS[3], string.format('%d', at), id) end
for _, mark in ipairs(book.marks) do redis.call('ZADD', KEYS[4], 0, mark) end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[2]) end
return 1`;

export interface RedisStateTransferOptions {
  target: RedisTarget;
  keyPrefix?: string;
  /** The Redis store on the same Redis and prefix: its work queues are read and written through it. */
  store: Store;
}

/** Export from and import into the Redis `target` names; `close()` ends its connection. */
export function redisStateTransfer(
  options: RedisStateTransferOptions,
): StateTransfer & { close(): Promise<void> } {
  const prefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  const redis = redisClient(options.target, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});

  return {
    async *exportState() {
      await whenReady(redis, 10_000);
      /** The entry books seen among the keys: each exported whole after the scan. */
      const books = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await scanKeyspace(redis, `${prefix}*`, cursor, 500);
        cursor = page.cursor;
        for (const fullKey of page.keys) {
          const key = fullKey.slice(prefix.length);
          // A work queue's own keys: its items are exported below, through the queue.
          if (key.startsWith('queue:{')) continue;
          const book = bookNameOf(key);
          if (book !== null) {
            books.add(book);
            continue;
          }
          // The marks of built indexes stay with this store (the indexes, sorted sets, are not moved).
          if (isIndexBuildKey(key)) continue;
          const [type, ttl] = await Promise.all([redis.type(fullKey), redis.pttl(fullKey)]);
          // Gone meanwhile, or a key without a TTL (not one the store writes).
          if (ttl <= 0) continue;
          if (type === 'hash') {
            const [value, version] = await redis.hmget(fullKey, 'value', 'version');
            if (value == null || version == null) continue;
            yield { type: 'entry', key, value, version: Number(version), ttlMs: ttl } satisfies StateRecord;
          } else if (type === 'string') {
            const count = await redis.get(fullKey);
            if (count === null || !/^-?\d+$/.test(count)) continue;
            yield { type: 'counter', key, count: Number(count), ttlMs: ttl } satisfies StateRecord;
          }
        }
      } while (cursor !== null);
      for (const name of books) {
        const [entries, totals, deadlines, marks] = redisBookKeys(prefix, name);
        const [entryValues, totalValues, deadlineScores, markNames] = await Promise.all([
          redis.hgetall(entries),
          redis.hgetall(totals),
          redis.zrange(deadlines, '0', '-1', 'WITHSCORES'),
          redis.zrange(marks, '0', '-1'),
        ]);
        const record: StateRecord = {
          type: 'book',
          name,
          entries: entryValues,
          deadlines: {},
          totals: Object.fromEntries(
            Object.entries(totalValues).map(([total, value]) => [total, Number(value)]),
          ),
          marks: markNames,
        };
        for (let index = 0; index + 1 < deadlineScores.length; index += 2) {
          record.deadlines[deadlineScores[index] as string] = Number(deadlineScores[index + 1]);
        }
        yield record;
      }
      for (const queue of Object.values(QUEUE_NAMES)) {
        let page: string | null = null;
        do {
          const answer: { items: QueueItem[]; cursor: string | null } = await options.store
            .queue(queue)
            .scan(page, 500);
          for (const { id, partition, dueAtMs } of answer.items) {
            const record: StateRecord = { type: 'queue-item', queue, id, partition, dueAtMs };
            yield record;
          }
          page = answer.cursor;
        } while (page !== null);
      }
    },

    async importState(records) {
      const counts: ImportCounts = emptyCounts();
      for await (const record of records) {
        if (record.type === 'entry') {
          const written = await redis.eval(
            RESTORE_ENTRY,
            1,
            `${prefix}${record.key}`,
            record.value,
            record.version,
            Math.ceil(record.ttlMs),
          );
          if (written === 1) counts.imported.entry += 1;
          else counts.kept += 1;
        } else if (record.type === 'book') {
          const written = await redis.eval(
            RESTORE_BOOK,
            4,
            ...redisBookKeys(prefix, record.name),
            JSON.stringify(record),
            BOOK_RETENTION_MS,
          );
          if (written === 1) counts.imported.book += 1;
          else counts.kept += 1;
        } else if (record.type === 'counter') {
          const written = await redis.set(
            `${prefix}${record.key}`,
            record.count,
            'PX',
            Math.ceil(record.ttlMs),
            'NX',
          );
          if (written === 'OK') counts.imported.counter += 1;
          else counts.kept += 1;
        } else {
          const queue = options.store?.queue?.(record.queue);
          if (queue === undefined) {
            throw new Error(
              `this release's Redis store has no work queues: cannot import ${record.type} records`,
            );
          }
          if (record.type === 'queue-item') {
            const { id, partition, dueAtMs } = record;
            if (await queue.add({ id, partition, dueAtMs })) counts.imported['queue-item'] += 1;
            else counts.kept += 1;
          } else {
            await queue.pausePartition(record.partition, record.untilMs);
            counts.imported['queue-pause'] += 1;
          }
        }
      }
      return counts;
    },

    async close() {
      redis.disconnect();
    },
  };
}
