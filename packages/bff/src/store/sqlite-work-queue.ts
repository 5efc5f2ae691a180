/**
 * @module
 * A {@link WorkQueue} in the embedded store's database: one indexed row per item (`queue_items`, by partition and
 * due time, and by the time it was added) and one row per partition (`queue_partitions`: its earliest due time,
 * its item count, its pause, and when a claim can next take from it). Every operation reads and writes through
 * indexes; a claim walks partitions in the order they can be claimed and reads at most `perPartition` items of
 * each, so no call reads the backlog whole.
 */
import type { SqliteDatabase } from './sqlite-engine';
import type { StoreStep } from './sqlite-group-commit';
import type { ClaimOptions, QueueItem, QueueStats, WorkQueue } from './work-queue';

/** The statements of every queue in one database, prepared once. */
export type SqliteQueueStatements = ReturnType<typeof prepareQueueStatements>;

/** Prepare the queue statements of `db` (once per database). */
export function prepareQueueStatements(db: SqliteDatabase) {
  return {
    selectItem: db.prepare('SELECT partition, due_at FROM queue_items WHERE queue = ? AND id = ?'),
    insertItem: db.prepare(
      `INSERT INTO queue_items (queue, id, partition, due_at, added_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    ),
    deleteItem: db.prepare('DELETE FROM queue_items WHERE queue = ? AND id = ?'),
    moveItem: db.prepare('UPDATE queue_items SET due_at = ? WHERE queue = ? AND id = ?'),
    countItems: db.prepare(
      `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until, claimable_at)
       VALUES (?, ?, NULL, ?, 0, NULL)
       ON CONFLICT (queue, partition) DO UPDATE SET item_count = item_count + excluded.item_count`,
    ),
    earliestOf: db.prepare(
      'SELECT due_at FROM queue_items WHERE queue = ? AND partition = ? ORDER BY due_at LIMIT 1',
    ),
    // Bound: the earliest due time three times (null when the partition has no items), the queue, the partition.
    settle: db.prepare(
      `UPDATE queue_partitions SET earliest_due_at = ?,
         claimable_at = CASE WHEN ? IS NULL THEN NULL ELSE max(?, paused_until) END
       WHERE queue = ? AND partition = ?`,
    ),
    dropIdlePartition: db.prepare(
      'DELETE FROM queue_partitions WHERE queue = ? AND partition = ? AND item_count = 0 AND paused_until <= ?',
    ),
    claimablePartitions: db.prepare(
      `SELECT partition FROM queue_partitions WHERE queue = ? AND claimable_at <= ?
       ORDER BY claimable_at LIMIT ?`,
    ),
    dueItemsOf: db.prepare(
      `SELECT id FROM queue_items
       WHERE queue = ? AND partition = ? AND due_at <= ? ORDER BY due_at LIMIT ?`,
    ),
    pause: db.prepare(
      `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until, claimable_at)
       VALUES (?, ?, NULL, 0, ?, NULL)
       ON CONFLICT (queue, partition) DO UPDATE SET paused_until = excluded.paused_until`,
    ),
    sizeAndNext: db.prepare(
      `SELECT coalesce(sum(item_count), 0) AS size, min(claimable_at) AS next
       FROM queue_partitions WHERE queue = ?`,
    ),
    oldest: db.prepare('SELECT added_at FROM queue_items WHERE queue = ? ORDER BY added_at LIMIT 1'),
    page: db.prepare(
      'SELECT id, partition, due_at FROM queue_items WHERE queue = ? AND id > ? ORDER BY id LIMIT ?',
    ),
  };
}

/**
 * The queue `name` in `db`. Each operation runs synchronously in one transaction, through `run` (the store's
 * error handling; a change resolves once the store's sync covers it); `now` stamps when an item was added.
 */
export function createSqliteWorkQueue(
  db: SqliteDatabase,
  statements: SqliteQueueStatements,
  name: string,
  run: StoreStep,
  now: () => number,
): WorkQueue {
  const s = statements;

  /** Put `partition` back in order after its items or its pause changed; its row goes when it is idle. */
  function settle(partition: string): void {
    const earliest = s.earliestOf.get(name, partition);
    const dueAt = earliest === undefined ? null : Number(earliest.due_at);
    s.settle.run(dueAt, dueAt, dueAt, name, partition);
    if (earliest === undefined) s.dropIdlePartition.run(name, partition, now());
  }

  const itemOf = (id: string, partition: unknown, dueAt: unknown): QueueItem => ({
    id,
    partition: String(partition),
    dueAtMs: Number(dueAt),
  });

  return {
    add: (item) =>
      run(
        'add a queue item',
        () =>
          db.transaction(() => {
            const inserted = s.insertItem.run(name, item.id, item.partition, item.dueAtMs, now());
            if (Number(inserted.changes) !== 1) return false;
            s.countItems.run(name, item.partition, 1);
            settle(item.partition);
            return true;
          }),
        'durable',
      ),

    claim: (nowMs, options: ClaimOptions) =>
      run(
        'claim queue items',
        () =>
          db.transaction(() => {
            const claimed: QueueItem[] = [];
            if (options.limit <= 0 || options.perPartition <= 0) return claimed;
            const leasedUntil = nowMs + options.leaseMs;
            // Each claimable partition gives at least one item, so `limit` partitions are enough.
            for (const row of s.claimablePartitions.all(name, nowMs, options.limit)) {
              const partition = String(row.partition);
              const take = Math.min(options.perPartition, options.limit - claimed.length);
              if (take <= 0) break;
              for (const item of s.dueItemsOf.all(name, partition, nowMs, take)) {
                s.moveItem.run(leasedUntil, name, String(item.id));
                claimed.push({ id: String(item.id), partition, dueAtMs: leasedUntil });
              }
              settle(partition);
            }
            return claimed;
          }),
        'durable',
      ),

    reschedule: (id, dueAtMs) =>
      run(
        'reschedule a queue item',
        () =>
          db.transaction(() => {
            const item = s.selectItem.get(name, id);
            if (item === undefined) return;
            s.moveItem.run(dueAtMs, name, id);
            settle(String(item.partition));
          }),
        'durable',
      ),

    pausePartition: (partition, untilMs) =>
      run(
        'pause a queue partition',
        () =>
          db.transaction(() => {
            s.pause.run(name, partition, untilMs);
            settle(partition);
          }),
        'durable',
      ),

    remove: (id) =>
      run(
        'remove a queue item',
        () =>
          db.transaction(() => {
            const item = s.selectItem.get(name, id);
            if (item === undefined) return;
            s.deleteItem.run(name, id);
            s.countItems.run(name, String(item.partition), -1);
            settle(String(item.partition));
          }),
        'durable',
      ),

    get: (id) =>
      run(
        'read a queue item',
        () => {
          const item = s.selectItem.get(name, id);
          return item === undefined ? null : itemOf(id, item.partition, item.due_at);
        },
        'read',
      ),

    stats: () =>
      run(
        'read queue stats',
        (): QueueStats => {
          // O(partitions) for the size (a partition per widget), O(log n) for the rest.
          const row = s.sizeAndNext.get(name);
          const oldest = s.oldest.get(name);
          const next = row?.next ?? null;
          return {
            size: Number(row?.size ?? 0),
            nextClaimableAtMs: next === null ? null : Number(next),
            oldestAddedAtMs: oldest === undefined ? null : Number(oldest.added_at),
          };
        },
        'read',
      ),

    scan: (cursor, count) =>
      run(
        'read a page of queue items',
        () => {
          // The cursor is the last id of the page before: pages follow the primary key.
          const rows = s.page.all(name, cursor ?? '', Math.max(1, count));
          const items = rows.map((row) => itemOf(String(row.id), row.partition, row.due_at));
          return { items, cursor: rows.length < Math.max(1, count) ? null : (items.at(-1)?.id ?? null) };
        },
        'read',
      ),
  };
}
