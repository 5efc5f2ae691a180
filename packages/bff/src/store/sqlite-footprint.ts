/**
 * @module
 * What the embedded store takes on disk: its database file and WAL after a checkpoint, and, where the SQLite build
 * has the `dbstat` table (both engines' builds do), the bytes of each table and index, how many of them are record
 * payload and how many are left unused on their pages. The benchmark reports it per purchase; the store's tests
 * hold it to a budget.
 */
import { statSync } from 'node:fs';
import type { SqliteDatabase } from './sqlite-engine';

/** The bytes one table or index of the database takes. */
export interface TableFootprint {
  /** The table's or index's name. */
  name: string;
  /** Its pages' bytes: b-tree pages and overflow pages. */
  bytes: number;
  /** The record bytes they hold. */
  payloadBytes: number;
  /** The bytes left unused on its pages. */
  unusedBytes: number;
  /** How many of its pages are overflow pages (a record too large to stay on its b-tree page). */
  overflowPages: number;
}

/** The embedded store's size on disk. */
export interface StoreFootprint {
  /** The database file's size. */
  databaseBytes: number;
  /** The WAL's size (after the checkpoint, what a reader kept from being copied). */
  walBytes: number;
  /** The database's page size. */
  pageSize: number;
  /** The free pages' bytes inside the database file (the sweep's incremental vacuum takes them out). */
  freeBytes: number;
  /** Per table and index, largest first; null when this SQLite build has no `dbstat`. */
  tables: TableFootprint[] | null;
}

/** The bytes per table and index from `dbstat`, or null when this SQLite build has none. */
function tableFootprints(db: SqliteDatabase): TableFootprint[] | null {
  let rows: ReturnType<ReturnType<SqliteDatabase['prepare']>['all']>;
  try {
    rows = db
      .prepare(
        `SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload, sum(unused) AS unused,
           sum(pagetype = 'overflow') AS overflow
         FROM dbstat GROUP BY name ORDER BY bytes DESC, name`,
      )
      .all();
  } catch {
    return null;
  }
  return rows.map((row) => ({
    name: String(row.name),
    bytes: Number(row.bytes),
    payloadBytes: Number(row.payload),
    unusedBytes: Number(row.unused),
    overflowPages: Number(row.overflow),
  }));
}

/**
 * Measure the database at `file` (open as `db`): the WAL is first copied into the database and emptied (a
 * `TRUNCATE` checkpoint, as the sweep makes), so the file's size is what the store holds.
 */
export function measureFootprint(db: SqliteDatabase, file: string): StoreFootprint {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const pragma = (name: string) => Number(db.prepare(`PRAGMA ${name}`).get()?.[name]);
  const pageSize = pragma('page_size');
  const sizeOf = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return {
    databaseBytes: sizeOf(file),
    walBytes: sizeOf(`${file}-wal`),
    pageSize,
    freeBytes: pragma('freelist_count') * pageSize,
    tables: tableFootprints(db),
  };
}
