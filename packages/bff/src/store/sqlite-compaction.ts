/**
 * @module
 * What the embedded store deletes leaves its files. SQLite keeps deleted rows readable where they lay: in the free
 * space of a page, on free pages, in old frames of the WAL. Three settings take them out: `secure_delete = FAST`
 * zeroes a deleted row's bytes on the pages a delete writes anyway (no extra I/O); incremental auto-vacuum takes
 * the free pages out of the file (the file shrinks), run by the store's sweep after it deletes; and a `TRUNCATE`
 * checkpoint then copies the WAL into the database and empties it. A database written before these settings
 * (auto-vacuum can only be turned on before a table exists) is rebuilt once, with `VACUUM`, at start.
 */
import type { SqliteDatabase } from './sqlite-engine';

/** `PRAGMA auto_vacuum`'s answer for incremental auto-vacuum. */
const INCREMENTAL = 2;

/**
 * The settings that erase deleted content, set on every open before the WAL is turned on and before any table
 * exists (a new database takes auto-vacuum only then; an older one is rebuilt by {@link rebuildForAutoVacuum}).
 */
export function eraseDeletedContent(db: SqliteDatabase): void {
  // FAST rather than ON: ON also writes every freed page full of zeroes, which makes the sweep dearer (its freed
  // pages written, then vacuumed away) and keeps nothing off the disk sooner: until the sweep's checkpoint the WAL
  // holds the deleted rows' pages either way. The figures: bench/findings.md, `erasure-cost`.
  db.exec('PRAGMA secure_delete = FAST');
  db.exec('PRAGMA auto_vacuum = INCREMENTAL');
}

/** Whether the database takes its free pages out of the file (incremental auto-vacuum). */
export function hasIncrementalVacuum(db: SqliteDatabase): boolean {
  return Number(db.prepare('PRAGMA auto_vacuum').get()?.auto_vacuum) === INCREMENTAL;
}

/** The database's size, and how much of it is free pages. */
export function databaseBytes(db: SqliteDatabase): { bytes: number; freeBytes: number } {
  const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size);
  const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count);
  const free = Number(db.prepare('PRAGMA freelist_count').get()?.freelist_count);
  return { bytes: pages * pageSize, freeBytes: free * pageSize };
}

/**
 * Rebuild a database written before incremental auto-vacuum (a release before this one), once: `VACUUM` turns
 * the setting on, drops the deleted rows and free pages an older release left, and the checkpoint empties the WAL
 * that held the rebuild. One transaction: an interrupted rebuild leaves the database as it was, and the next start
 * tries again. Answers the sizes before and after, or null when there was nothing to do.
 */
export function rebuildForAutoVacuum(db: SqliteDatabase): { bytesBefore: number; bytesAfter: number } | null {
  if (hasIncrementalVacuum(db)) return null;
  const bytesBefore = databaseBytes(db).bytes;
  db.exec('VACUUM');
  truncateLog(db);
  return { bytesBefore, bytesAfter: databaseBytes(db).bytes };
}

/**
 * One bounded step of incremental vacuum: at most `pages` free pages taken out of the file (pages after them moved
 * into their place), in one transaction. True when free pages remain.
 */
export function reclaimFreePages(db: SqliteDatabase, pages: number): boolean {
  return db.transaction(() => {
    // PRAGMA takes no bound parameters; the count is a number of the store's own.
    db.exec(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    return Number(db.prepare('PRAGMA freelist_count').get()?.freelist_count) > 0;
  });
}

/**
 * Copy the WAL into the database and empty it (`TRUNCATE`), so that old frames holding deleted rows leave the disk.
 * SQLite syncs the WAL before it copies and the database after, so the writes the WAL held stay durable. A backup
 * reading meanwhile holds the checkpoint back without failing it (SQLite then copies what it can, and the WAL is
 * emptied by the next sweep).
 */
export function truncateLog(db: SqliteDatabase): void {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}
