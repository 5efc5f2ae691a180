/**
 * @module
 * A {@link WorkQueue} in the embedded store's database: one indexed row per item (`queue_items`, by due time
 * and by partition) and one row per partition (`queue_partitions`: its earliest due time, its item count, its
 * pause). Every operation reads and writes through indexes, a claim walks partitions in the order of their
 * earliest due item and reads at most `perPartition` items of each, so no call reads the backlog whole.
 */
import type { SqliteDatabase } from './sqlite-engine';
import type { ClaimOptions, QueueItem, WorkQueue } from './work-queue';

/** The statements of every queue in one database, prepared once. */
export type SqliteQueueStatements = ReturnType<typeof prepareQueueStatements>;

/** Prepare the queue statements of `db` (once per database). */
export function prepareQueueStatements(db: SqliteDatabase) {
  return {
    selectItem: db.prepare('SELECT partition, due_at FROM queue_items WHERE queue = ? AND id = ?'),
    insertItem: db.prepare(
      'INSERT INTO queue_items (queue, id, partition, due_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    deleteItem: db.prepare('DELETE FROM queue_items WHERE queue = ? AND id = ?'),
    moveItem: db.prepare('UPDATE queue_items SET due_at = ? WHERE queue = ? AND id = ?'),
    countItemIn: db.prepare(
      `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until)
       VALUES (?, ?, ?, 1, 0)
       ON CONFLICT (queue, partition) DO UPDATE SET
         item_count = item_count + 1,
         earliest_due_at = min(coalesce(earliest_due_at, excluded.earliest_due_at), excluded.earliest_due_at)`,
    ),
    countItemOut: db.prepare(
      'UPDATE queue_partitions SET item_count = item_count - 1 WHERE queue = ? AND partition = ?',
    ),
    earliestOf: db.prepare(
      'SELECT due_at FROM queue_items WHERE queue = ? AND partition = ? ORDER BY due_at LIMIT 1',
    ),
    setEarliest: db.prepare(
      'UPDATE queue_partitions SET earliest_due_at = ? WHERE queue = ? AND partition = ?',
    ),
    dropIdlePartition: db.prepare(
      'DELETE FROM queue_partitions WHERE queue = ? AND partition = ? AND item_count = 0 AND paused_until <= ?',
    ),
    duePartitions: db.prepare(
      `SELECT partition FROM queue_partitions
       WHERE queue = ? AND earliest_due_at <= ? AND paused_until <= ?
       ORDER BY earliest_due_at LIMIT ?`,
    ),
    dueItemsOf: db.prepare(
      `SELECT id, due_at FROM queue_items
       WHERE queue = ? AND partition = ? AND due_at <= ? ORDER BY due_at LIMIT ?`,
    ),
    pause: db.prepare(
      `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until)
       VALUES (?, ?, NULL, 0, ?)
       ON CONFLICT (queue, partition) DO UPDATE SET paused_until = excluded.paused_until`,
    ),
    stats: db.prepare(
      `SELECT coalesce(sum(item_count), 0) AS size, min(earliest_due_at) AS earliest
       FROM queue_partitions WHERE queue = ?`,
    ),
  };
}

/** The queue `name` in `db`. Operations run synchronously inside one transaction each. */
export function createSqliteWorkQueue(
  db: SqliteDatabase,
  statements: SqliteQueueStatements,
  name: string,
  run: <T>(what: string, work: () => T) => Promise<T>,
  now: () => number,
): WorkQueue {
  const s = statements;

  /** After a change of `partition`'s items: its earliest due time again, and its row gone if idle. */
  function refresh(partition: string): void {
    const earliest = s.earliestOf.get(name, partition);
    s.setEarliest.run(earliest === undefined ? null : Number(earliest.due_at), name, partition);
    if (earliest === undefined) s.dropIdlePartition.run(name, partition, now());
  }

  return {
    add: (item) =>
      run('add a queue item', () =>
        db.transaction(() => {
          const added = Number(s.insertItem.run(name, item.id, item.partition, item.dueAtMs).changes) === 1;
          if (added) s.countItemIn.run(name, item.partition, item.dueAtMs);
          return added;
        }),
      ),

    claim: (nowMs, options: ClaimOptions) =>
      run('claim queue items', () =>
        db.transaction(() => {
          const claimed: QueueItem[] = [];
          if (options.limit <= 0 || options.perPartition <= 0) return claimed;
          const partitions = s.duePartitions.all(name, nowMs, nowMs, options.limit);
          const leasedUntil = nowMs + options.leaseMs;
          for (const row of partitions) {
            const partition = String(row.partition);
            const take = Math.min(options.perPartition, options.limit - claimed.length);
            if (take <= 0) break;
            for (const item of s.dueItemsOf.all(name, partition, nowMs, take)) {
              s.moveItem.run(leasedUntil, name, String(item.id));
              claimed.push({ id: String(item.id), partition, dueAtMs: leasedUntil });
            }
            refresh(partition);
          }
          return claimed;
        }),
      ),

    reschedule: (id, dueAtMs) =>
      run('reschedule a queue item', () =>
        db.transaction(() => {
          const item = s.selectItem.get(name, id);
          if (item === undefined) return;
          s.moveItem.run(dueAtMs, name, id);
          refresh(String(item.partition));
        }),
      ),

    pausePartition: (partition, untilMs) =>
      run('pause a queue partition', () => {
        s.pause.run(name, partition, untilMs);
      }),

    remove: (id) =>
      run('remove a queue item', () =>
        db.transaction(() => {
          const item = s.selectItem.get(name, id);
          if (item === undefined) return;
          s.deleteItem.run(name, id);
          s.countItemOut.run(name, String(item.partition));
          refresh(String(item.partition));
        }),
      ),

    get: (id) =>
      run('read a queue item', () => {
        const item = s.selectItem.get(name, id);
        return item === undefined
          ? null
          : { id, partition: String(item.partition), dueAtMs: Number(item.due_at) };
      }),

    stats: () =>
      run('read queue stats', () => {
        const row = s.stats.get(name);
        const earliest = row?.earliest ?? null;
        return { size: Number(row?.size ?? 0), earliestDueAtMs: earliest === null ? null : Number(earliest) };
      }),
  };
}
