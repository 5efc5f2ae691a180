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
    books: db.prepare(
      `SELECT book FROM book_entries UNION SELECT book FROM book_totals UNION SELECT book FROM book_marks
       ORDER BY book`,
    ),
    bookEntries: db.prepare('SELECT id, value, deadline FROM book_entries WHERE book = ?'),
    bookTotals: db.prepare('SELECT name, value FROM book_totals WHERE book = ?'),
    bookMarks: db.prepare('SELECT mark FROM book_marks WHERE book = ? ORDER BY mark'),
    bookHeld: db.prepare(
      `SELECT 1 FROM book_entries WHERE book = ? UNION ALL SELECT 1 FROM book_totals WHERE book = ?
       UNION ALL SELECT 1 FROM book_marks WHERE book = ? LIMIT 1`,
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
    bookEntry: db.prepare('INSERT INTO book_entries (book, id, value, deadline) VALUES (?, ?, ?, ?)'),
    bookTotal: db.prepare('INSERT INTO book_totals (book, name, value) VALUES (?, ?, ?)'),
    bookMark: db.prepare('INSERT INTO book_marks (book, mark) VALUES (?, ?)'),
  };

  /** A book whole, or kept when the target holds any of it (its totals must stay the sum of its entries). */
  function importBook(record: Extract<StateRecord, { type: 'book' }>): boolean {
    let written = false;
    db.transaction(() => {
      if (pages.bookHeld.get(record.name, record.name, record.name) !== undefined) return;
      for (const [id, value] of Object.entries(record.entries)) {
        writes.bookEntry.run(record.name, id, value, record.deadlines[id] ?? null);
      }
      for (const [total, value] of Object.entries(record.totals))
        writes.bookTotal.run(record.name, total, value);
      for (const mark of record.marks) writes.bookMark.run(record.name, mark);
      written = true;
    });
    return written;
  }

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
      for (const { book } of pages.books.all()) {
        const name = String(book);
        const record: StateRecord = { type: 'book', name, entries: {}, deadlines: {}, totals: {}, marks: [] };
        for (const row of pages.bookEntries.all(name)) {
          record.entries[String(row.id)] = String(row.value);
          if (row.deadline !== null) record.deadlines[String(row.id)] = Number(row.deadline);
        }
        for (const row of pages.bookTotals.all(name)) record.totals[String(row.name)] = Number(row.value);
        record.marks = pages.bookMarks.all(name).map((row) => String(row.mark));
        yield record;
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
          } else if (record.type === 'book') {
            if (importBook(record)) counts.imported.book += 1;
            else counts.kept += 1;
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
