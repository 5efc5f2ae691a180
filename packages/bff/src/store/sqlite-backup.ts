/**
 * @module
 * Backups of the embedded store while the BFF serves, and their restore into an empty data directory. A backup
 * opens the database read-only beside the running BFF — in WAL mode a reader and the writer never wait for each
 * other, and the BFF's lock file (`sqlite-instance-lock.ts`) is not touched — and writes it with `VACUUM INTO`
 * into a new file of its user's alone: one read transaction, so the copy is the database as it was at one
 * instant, every write the BFF had answered for by then and none of those that followed. A restore checks that
 * the file is a store of a schema version this release opens, and writes it the same way into the data directory,
 * held meanwhile so that no BFF starts on it half-written.
 *
 * Why `VACUUM INTO` rather than SQLite's online backup API (`db.backup()` of better-sqlite3, `backup()` of
 * `node:sqlite`): it is one SQL statement on both engines (`node:sqlite` has `backup()` only from Node.js 22.16);
 * the backup API copies pages, free ones included, so remnants of deleted rows would travel in the copy, where
 * `VACUUM INTO` writes only the live rows; in its default steps the backup API starts again whenever the BFF
 * writes between two steps (better-sqlite3's did not finish under a steady writer); and `VACUUM INTO` writes into
 * a file this module created `0600`, one self-contained file with no `-wal` beside it. It costs about twice a
 * one-step page copy (it rebuilds the tables), in the backup's process, not the BFF's:
 * `bench/reports/store-backup.md`.
 */
import { renameSync, rmSync, statSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createPrivateFile, preparePrivateDataDir } from './sqlite-data-dir';
import { isDatabaseLocked, openSqlite, type SqliteDatabase } from './sqlite-engine';
import { LOCK_FILE, lockDataDir } from './sqlite-instance-lock';
import { SCHEMA_VERSION, schemaObjectsAt, schemaObjectsOf, schemaVersionOf } from './sqlite-schema';
import { DATABASE_FILE } from './sqlite-store';
import { STORE_KEYS } from './store';

/** How long the backup waits for a lock it needs (a BFF starting up recovers its WAL meanwhile). */
const READ_LOCK_TIMEOUT_MS = 10_000;

/** What a backup or a restore wrote, for its report. */
export interface StoreCopy {
  /** The file written: the backup, or the restored database. */
  file: string;
  bytes: number;
  schemaVersion: number;
  /** The checkouts it holds (not yet expired). */
  checkouts: number;
}

/** The checkouts of the database that have not expired. */
function checkoutCount(db: SqliteDatabase): number {
  const prefix = STORE_KEYS.checkout('');
  const row = db
    .prepare('SELECT count(*) AS count FROM entries WHERE key > ? AND key < ? AND expires_at > ?')
    .get(prefix, `${prefix}\u{10ffff}`, Date.now());
  return Number(row?.count ?? 0);
}

/** Sync the file or folder at `path` to disk. */
async function syncToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Write the database `source` as it is now into the new file `target` (`0600`; a file that is there is refused),
 * synced to disk with its name. A copy that fails is deleted.
 */
async function writeCopy(source: SqliteDatabase, target: string): Promise<void> {
  // Created here, for its owner alone, before SQLite opens it: VACUUM INTO writes into an empty file.
  await (await createPrivateFile(target)).close();
  try {
    source.prepare('VACUUM INTO ?').run(target);
    // VACUUM INTO does not sync what it wrote.
    await syncToDisk(target);
    await syncToDisk(dirname(target));
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
}

/**
 * Back up the embedded store in `dataDir` into the new file `file`, whether a BFF serves from it or not.
 * Throws when there is no store there or the file exists. `waitForLockMs` (default 10 s) bounds the wait for a
 * lock held by another process.
 */
export async function backupStore(
  dataDir: string,
  file: string,
  options: { waitForLockMs?: number } = {},
): Promise<StoreCopy> {
  const waitForLockMs = options.waitForLockMs ?? READ_LOCK_TIMEOUT_MS;
  const database = join(resolve(dataDir), DATABASE_FILE);
  const target = resolve(file);
  let db: SqliteDatabase;
  try {
    statSync(database);
    db = openSqlite(database, { readOnly: true });
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitForLockMs))}`);
  } catch (error) {
    throw new Error(
      `no embedded store in ${dirname(database)} (${(error as Error).message}): set ESIM_BFF_DATA_DIR to the ` +
        'folder the BFF runs with',
      { cause: error },
    );
  }
  try {
    try {
      await writeCopy(db, target);
    } catch (error) {
      if (!isDatabaseLocked(error)) throw error;
      throw new Error(
        `the database in ${dirname(database)} stayed locked for ${waitForLockMs / 1000} s: a BFF of a ` +
          'release before backups holds it alone. Restart that BFF on this release (which shares the database ' +
          'with a backup), or stop it, then back up.',
        { cause: error },
      );
    }
    // The copy's own figures: what a restore of it will find.
    const copy = openSqlite(target, { readOnly: true });
    try {
      return {
        file: target,
        bytes: statSync(target).size,
        schemaVersion: schemaVersionOf(copy),
        checkouts: checkoutCount(copy),
      };
    } finally {
      copy.close();
    }
  } finally {
    db.close();
  }
}

/**
 * Open the backup `file` read-only once it is known to be a whole embedded store of a schema version this release
 * opens (a later migration runs at the BFF's start); throws saying what it is instead.
 */
function openBackup(file: string): { db: SqliteDatabase; schemaVersion: number } {
  const notABackup = (why: string, cause?: unknown) =>
    new Error(`${file} is not a backup of the embedded store: ${why}`, { cause });
  let db: SqliteDatabase;
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
    db = openSqlite(file, { readOnly: true });
  } catch (error) {
    throw notABackup((error as Error).message, error);
  }
  try {
    let checked: string;
    try {
      checked = String(db.prepare('PRAGMA integrity_check(1)').get()?.integrity_check);
    } catch (error) {
      throw notABackup((error as Error).message, error);
    }
    if (checked !== 'ok') throw notABackup(`the database is damaged (${checked})`);
    const schemaVersion = schemaVersionOf(db);
    if (schemaVersion > SCHEMA_VERSION) {
      throw new Error(
        `${file} was taken by a newer release (schema version ${schemaVersion}; this release knows up to ` +
          `${SCHEMA_VERSION}): restore it with that release or a later one`,
      );
    }
    const expected = schemaObjectsAt(schemaVersion).join(', ');
    if (schemaVersion === 0 || schemaObjectsOf(db).join(', ') !== expected) {
      throw notABackup('an SQLite database, but its tables are not those of the store');
    }
    return { db, schemaVersion };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Restore the backup `file` into `dataDir`: created `0700` when missing, else an empty folder only its owner may
 * enter. The database is written under a temporary name and renamed once whole, with the directory held (a BFF
 * starting on it meanwhile is refused).
 */
export async function restoreStore(file: string, dataDir: string): Promise<StoreCopy> {
  const source = resolve(file);
  const folder = resolve(dataDir);
  const backup = openBackup(source);
  try {
    preparePrivateDataDir(folder);
    const refuseUnlessEmpty = async () => {
      const found = (await readdir(folder)).filter((name) => name !== LOCK_FILE).sort();
      if (found.length > 0) {
        throw new Error(
          `the data directory ${folder} is not empty (it holds ${found.slice(0, 3).join(', ')}` +
            `${found.length > 3 ? ', …' : ''}): restore into a new or empty folder (ESIM_BFF_DATA_DIR) and start ` +
            'the BFF on it; to replace this store, stop its BFF and move the folder aside first',
        );
      }
    };
    // Checked before the lock, so that a folder that is not a data directory gets no lock file.
    await refuseUnlessEmpty();
    const lock = lockDataDir(folder);
    try {
      await refuseUnlessEmpty();
      const restored = join(folder, DATABASE_FILE);
      const partial = `${restored}.restoring`;
      await writeCopy(backup.db, partial);
      renameSync(partial, restored);
      await syncToDisk(folder);
      return {
        file: restored,
        bytes: statSync(restored).size,
        schemaVersion: backup.schemaVersion,
        checkouts: checkoutCount(backup.db),
      };
    } finally {
      lock.release();
    }
  } finally {
    backup.db.close();
  }
}
