/**
 * @module
 * The embedded store's sorted indexes (see {@link SortedIndex}): one table of `(name, member)` rows with a score
 * and an expiry, read through its `(name, score, member)` index from the top down, so a page costs O(log n +
 * limit) however many members an index holds. Expired rows are skipped when read and swept with the store's other
 * expired rows.
 *
 * An add or remove is committed at once but waits for no sync of its own (like a counter): the WAL is synced
 * whole, so the durable write that follows it — the checkout written after `beforeWrite`'s adds, the rebuild's
 * mark after its adds — reaches the disk with it. A checkout write thus costs one sync, not one per index step; a
 * membership lost with the unsynced tail of the WAL belonged to a write lost with it too, and a removal lost so
 * leaves a stale member that every list checks against its record anyway.
 */
import type { SqliteDatabase } from './sqlite-engine';
import type { StoreStep } from './sqlite-group-commit';
import type { IndexEntry, SortedIndex } from './store';

/** The statements of every sorted index, prepared once per database. */
export function prepareIndexStatements(db: SqliteDatabase) {
  return {
    add: db.prepare(
      `INSERT INTO index_entries (name, member, score, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (name, member) DO UPDATE SET score = excluded.score, expires_at = excluded.expires_at`,
    ),
    remove: db.prepare('DELETE FROM index_entries WHERE name = ? AND member = ?'),
    // The top of the range: no entry answered yet.
    top: db.prepare(
      `SELECT member, score FROM index_entries
       WHERE name = ? AND score >= ? AND score <= ? AND expires_at > ?
       ORDER BY score DESC, member DESC LIMIT ?`,
    ),
    // After an entry: lower scores, or the same score and a lower member. The entry's score also bounds the range
    // from above (`score <= ?`), so the read starts at it in the index instead of walking down to it.
    after: db.prepare(
      `SELECT member, score FROM index_entries
       WHERE name = ? AND score >= ? AND score <= ? AND (score < ? OR (score = ? AND member < ?)) AND expires_at > ?
       ORDER BY score DESC, member DESC LIMIT ?`,
    ),
    sweep: db.prepare(
      `DELETE FROM index_entries WHERE (name, member) IN (
         SELECT name, member FROM index_entries WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`,
    ),
  };
}

export type IndexStatements = ReturnType<typeof prepareIndexStatements>;

/** SQLite has no infinities in a bound parameter of every engine: the widest finite bounds instead. */
const bound = (score: number) => Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, score));

/** The sorted index `name` of the embedded store. */
export function createSqliteSortedIndex(
  statements: IndexStatements,
  name: string,
  run: StoreStep,
  now: () => number,
): SortedIndex {
  return {
    add: (member, score, ttlMs) =>
      run('add to an index', () => {
        statements.add.run(name, member, score, now() + ttlMs);
      }),
    remove: (member) =>
      run('remove from an index', () => {
        statements.remove.run(name, member);
      }),
    range: ({ fromScore, toScore, after, limit }) =>
      run(
        'read an index',
        (): IndexEntry[] => {
          const rows =
            after === null
              ? statements.top.all(name, bound(fromScore), bound(toScore), now(), limit)
              : statements.after.all(
                  name,
                  bound(fromScore),
                  bound(Math.min(toScore, after.score)),
                  after.score,
                  after.score,
                  after.member,
                  now(),
                  limit,
                );
          return rows.map((row) => ({ member: String(row.member), score: Number(row.score) }));
        },
        'read',
      ),
  };
}
