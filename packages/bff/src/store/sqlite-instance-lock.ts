/**
 * @module
 * One BFF process per data directory. The process holds an exclusive lock on a small file of the directory,
 * `esim-bff.lock`, for as long as it runs; a second process on the directory is refused. The lock is SQLite's own
 * file lock (the one lock Node.js can take without a native module), which the operating system drops when its
 * holder dies, however it dies, so a restart after `kill -9` needs no clean-up. It is held on a file of its own
 * rather than on the database so that the database can be shared in WAL mode: `server.mjs backup` reads a
 * consistent copy of it while the BFF writes, taking neither this lock nor any lease of the BFF's.
 */
import { join } from 'node:path';
import { DataDirInUseError, preparePrivateFiles } from './sqlite-data-dir';
import { isDatabaseLocked, openSqlite, type SqliteEngineName } from './sqlite-engine';

/** The lock's file name inside the data directory. */
export const LOCK_FILE = 'esim-bff.lock';

/** The data directory, held by this process until {@link InstanceLock.release}. */
export interface InstanceLock {
  release(): void;
}

/**
 * Take the data directory `dataDir` (an existing folder, made private by `preparePrivateDataDir`) for this process.
 * Throws {@link DataDirInUseError} when another process holds it.
 */
export function lockDataDir(dataDir: string, engine?: SqliteEngineName): InstanceLock {
  const file = join(dataDir, LOCK_FILE);
  preparePrivateFiles(file);
  const db = openSqlite(file, { engine });
  try {
    db.exec('PRAGMA busy_timeout = 0');
    // Nothing of value is written to the file: its journal is kept in memory, not beside it.
    db.exec('PRAGMA journal_mode = MEMORY');
    // Exclusive locking mode keeps the lock a transaction takes until the connection closes; the empty write
    // transaction takes it now.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.transaction(() => undefined);
  } catch (error) {
    db.close();
    if (isDatabaseLocked(error)) throw new DataDirInUseError(dataDir, { cause: error });
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}
