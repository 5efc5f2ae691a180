/**
 * @module
 * The embedded store's state as export records and back (see `state-transfer.ts`): its tables read in key
 * order a page at a time, records written in transactions of a few hundred.
 */
import type { SqliteStore } from './sqlite-store';
import { decodeValue, encodeValue } from './sqlite-value-encoding';
import { emptyCounts, type ImportCounts, type StateRecord, type StateTransfer } from './state-transfer';
import { isIndexBuildKey } from './store';

const PAGE = 500;

/** Export from and import into `store`. The BFF must not run on its data directory meanwhile (it is locked). */
export function sqliteStateTransfer(store: SqliteStore, now: () => number = Date.now): StateTransfer {
  const db = store.database;
  const pages = {
    entries: db.prepare(
      'SELECT key, value, version, expires_at FROM entries WHERE key > ? AND expires_at > ? ORDER BY key LIMIT ?',
    ),
    counters: db.prepare(
      'SELECT key, count, expires_at FROM counters WHERE key > ? AND expires_at > ? ORDER BY key LIMIT ?',
    ),
    items: db.prepare(
      `SELECT queue, id, partition, due_at FROM queue_items
       WHERE (queue, id) > (?, ?) ORDER BY queue, id LIMIT ?`,
    ),
    pauses: db.prepare(
      'SELECT queue, partition, paused_until FROM queue_partitions WHERE paused_until > ? ORDER BY queue, partition',
    ),
  };
  const writes = {
    entry: db.prepare(
      `INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version,
         expires_at = excluded.expires_at
       WHERE entries.expires_at <= ?`,
    ),
    counter: db.prepare(
      `INSERT INTO counters (key, count, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET count = excluded.count, expires_at = excluded.expires_at
       WHERE counters.expires_at <= ?`,
    ),
  };

  return {
    async *exportState() {
      for (let after = ''; ; ) {
        const time = now();
        const rows = pages.entries.all(after, time, PAGE);
        for (const row of rows) {
          // The marks of built indexes stay with this store (the indexes are not moved).
          if (isIndexBuildKey(String(row.key))) continue;
          yield {
            type: 'entry',
            key: String(row.key),
            value: decodeValue(row.value),
            version: Number(row.version),
            ttlMs: Math.max(1, Number(row.expires_at) - time),
          };
        }
        if (rows.length < PAGE) break;
        after = String(rows.at(-1)?.key);
      }
      for (let after = ''; ; ) {
        const time = now();
        const rows = pages.counters.all(after, time, PAGE);
        for (const row of rows) {
          yield {
            type: 'counter',
            key: String(row.key),
            count: Number(row.count),
            ttlMs: Math.max(1, Number(row.expires_at) - time),
          };
        }
        if (rows.length < PAGE) break;
        after = String(rows.at(-1)?.key);
      }
      for (let after: [string, string] = ['', '']; ; ) {
        const rows = pages.items.all(after[0], after[1], PAGE);
        for (const row of rows) {
          yield {
            type: 'queue-item',
            queue: String(row.queue),
            id: String(row.id),
            partition: String(row.partition),
            dueAtMs: Number(row.due_at),
          };
        }
        if (rows.length < PAGE) break;
        const last = rows.at(-1);
        after = [String(last?.queue), String(last?.id)];
      }
      for (const row of pages.pauses.all(now())) {
        yield {
          type: 'queue-pause',
          queue: String(row.queue),
          partition: String(row.partition),
          untilMs: Number(row.paused_until),
        };
      }
    },

    async importState(records) {
      const counts: ImportCounts = emptyCounts();
      let batch: StateRecord[] = [];
      const flush = async () => {
        const values = batch.filter((record) => record.type === 'entry' || record.type === 'counter');
        db.transaction(() => {
          const time = now();
          for (const record of values) {
            const written =
              record.type === 'entry'
                ? writes.entry.run(
                    record.key,
                    encodeValue(record.value),
                    record.version,
                    time + record.ttlMs,
                    time,
                  )
                : record.type === 'counter'
                  ? writes.counter.run(record.key, record.count, time + record.ttlMs, time)
                  : { changes: 0 };
            if (Number(written.changes) === 1) counts.imported[record.type] += 1;
            else counts.kept += 1;
          }
        });
        for (const record of batch) {
          if (record.type === 'queue-item') {
            const { id, partition, dueAtMs } = record;
            const added = await store.queue(record.queue).add({ id, partition, dueAtMs });
            if (added) counts.imported['queue-item'] += 1;
            else counts.kept += 1;
          } else if (record.type === 'queue-pause') {
            await store.queue(record.queue).pausePartition(record.partition, record.untilMs);
            counts.imported['queue-pause'] += 1;
          }
        }
        batch = [];
      };
      for await (const record of records) {
        batch.push(record);
        if (batch.length >= PAGE) await flush();
      }
      await flush();
      return counts;
    },
  };
}
