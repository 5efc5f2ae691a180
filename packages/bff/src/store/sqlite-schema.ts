/**
 * @module
 * The embedded store's tables and their versions. The database carries its schema version in
 * `PRAGMA user_version`; opening it runs every migration after that version, in one transaction, so a data
 * directory written by one release is opened by the next. A database from a newer release is refused (its
 * tables may mean something this release does not know).
 */
import { openSqlite, type SqliteDatabase } from './sqlite-engine';

/**
 * The migrations, in order: entry `i` takes a database from version `i` to `i + 1`. Append; never edit one
 * that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: versioned values with a time to live, fixed-window counters, work queues with their partitions.
  `
  CREATE TABLE entries (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX entries_by_expiry ON entries (expires_at);

  CREATE TABLE counters (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX counters_by_expiry ON counters (expires_at);

  CREATE TABLE queue_items (
    queue TEXT NOT NULL,
    id TEXT NOT NULL,
    partition TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (queue, id)
  ) WITHOUT ROWID;
  CREATE INDEX queue_items_by_partition ON queue_items (queue, partition, due_at);
  CREATE INDEX queue_items_by_added ON queue_items (queue, added_at);

  -- One row per partition that has items or a pause: its earliest due item, its item count and its pause, kept
  -- with every change of its items, and when a claim can next take from it (the later of the two, null when it
  -- has no items), so a claim reads partitions in that order without reading their items.
  CREATE TABLE queue_partitions (
    queue TEXT NOT NULL,
    partition TEXT NOT NULL,
    earliest_due_at INTEGER,
    item_count INTEGER NOT NULL,
    paused_until INTEGER NOT NULL,
    claimable_at INTEGER,
    PRIMARY KEY (queue, partition)
  ) WITHOUT ROWID;
  CREATE INDEX queue_partitions_by_claimable ON queue_partitions (queue, claimable_at);
  `,
  // 2: sorted indexes (the partner API's lists), each member with its score and its own expiry. The checkouts of
  // a database of version 1 are indexed at the BFF's start (its index rebuild finds no index built yet).
  `
  CREATE TABLE index_entries (
    name TEXT NOT NULL,
    member TEXT NOT NULL,
    score REAL NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (name, member)
  ) WITHOUT ROWID;
  CREATE INDEX index_entries_by_score ON index_entries (name, score, member);
  CREATE INDEX index_entries_by_expiry ON index_entries (expires_at);
  `,
  // 3: values in a rowid table, found by key through a unique index. A table WITHOUT ROWID keeps at most about a
  // quarter of a page of a row on its b-tree page and the rest on overflow pages of its own, mostly left empty;
  // a rowid table keeps a row of up to almost a page whole. A value may now be a blob: large values are kept
  // compressed (`sqlite-value-encoding.ts`); the rows copied here stay text and are read as they are.
  `
  CREATE TABLE entries_by_rowid (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    value BLOB NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  INSERT INTO entries_by_rowid (key, value, version, expires_at)
    SELECT key, value, version, expires_at FROM entries ORDER BY key;
  DROP TABLE entries;
  ALTER TABLE entries_by_rowid RENAME TO entries;
  CREATE UNIQUE INDEX entries_by_key ON entries (key);
  CREATE INDEX entries_by_expiry ON entries (expires_at);
  `,
  // 4: entry books (`store.ts`, `EntryBook`: the funding ledger's holds), each entry a row of its own with its
  // totals, its deadline and its marks beside it, so a change writes rows of its own size however many there are.
  `
  CREATE TABLE book_entries (
    book TEXT NOT NULL,
    id TEXT NOT NULL,
    value TEXT NOT NULL,
    deadline INTEGER,
    PRIMARY KEY (book, id)
  ) WITHOUT ROWID;
  CREATE INDEX book_entries_by_deadline ON book_entries (book, deadline) WHERE deadline IS NOT NULL;

  CREATE TABLE book_totals (
    book TEXT NOT NULL,
    name TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (book, name)
  ) WITHOUT ROWID;

  CREATE TABLE book_marks (
    book TEXT NOT NULL,
    mark TEXT NOT NULL,
    PRIMARY KEY (book, mark)
  ) WITHOUT ROWID;
  `,
];

/** The schema version this release writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database's schema version (0: a new, empty database). */
export function schemaVersionOf(db: SqliteDatabase): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}

/** The tables and indexes of a database, as `type name` lines, sorted (SQLite's own objects left out). */
export function schemaObjectsOf(db: SqliteDatabase): string[] {
  const rows = db
    .prepare(
      `SELECT type, name FROM sqlite_schema
       WHERE type IN ('table', 'index') AND substr(name, 1, 7) <> 'sqlite_' ORDER BY type, name`,
    )
    .all();
  return rows.map((row) => `${row.type} ${row.name}`);
}

/** The tables and indexes a database of schema `version` holds: those of a new database migrated to it. */
export function schemaObjectsAt(version: number): string[] {
  const db = openSqlite(':memory:');
  try {
    migrate(db, MIGRATIONS.slice(0, version));
    return schemaObjectsOf(db);
  } finally {
    db.close();
  }
}

/**
 * Bring the database to {@link SCHEMA_VERSION}; throws when it was written by a newer release.
 * `migrations` is replaceable in tests (the next release's step, tried on this one's data).
 */
export function migrate(db: SqliteDatabase, migrations: readonly string[] = MIGRATIONS): void {
  const found = schemaVersionOf(db);
  if (found > migrations.length) {
    throw new Error(
      `the data was written by a newer release (schema version ${found}; this release knows up to ` +
        `${migrations.length}). Run that release, or move the data directory aside.`,
    );
  }
  if (found === migrations.length) return;
  db.transaction(() => {
    for (const step of migrations.slice(found)) db.exec(step);
    // PRAGMA takes no bound parameters; the value is a number of this module's own.
    db.exec(`PRAGMA user_version = ${migrations.length}`);
  });
}
