/**
 * @module
 * The default store of one BFF instance: an embedded SQLite database in a data directory
 * (`ESIM_BFF_DATA_DIR`, default `data/`). The writes of one turn of the event loop are one transaction, committed
 * as the turn ends (`sqlite-write-batch.ts`; WAL, `synchronous=NORMAL`: SQLite does not sync a commit), and a
 * write's promise resolves only after that commit and one `fsync` of the WAL that covers it, issued
 * off the event loop for all the writes of a turn (group commit, `sqlite-group-commit.ts`), so whatever the BFF
 * answered for survives a crash, `SIGKILL` or power cut; a failed sync rejects its writes as the store being
 * unavailable. Counters, counted on every request, and the sorted indexes' steps (synced with the write that
 * follows them: `sqlite-sorted-index.ts`) are committed without waiting for a sync (see `increment`).
 * One process
 * serves from a directory (`sqlite-instance-lock.ts`: a second is refused); the database itself is shared in WAL
 * mode, so that a backup (`sqlite-backup.ts`) reads a consistent copy while the BFF writes. Expired rows are swept in the
 * background in bounded batches, and what is deleted leaves the files (`sqlite-compaction.ts`). The folder and
 * the files are the BFF's user's alone (`sqlite-data-dir.ts`).
 *
 * Over 300 lines: the `Store` operations as single statements on one database; its group commit, indexes,
 * queues, turn transaction, value codec, lock, backup and compaction have files of their own.
 */
import { join, resolve } from 'node:path';
import { createBackgroundLoop } from '../background-loop';
import type { Logger } from '../logger';
import {
  eraseDeletedContent,
  rebuildForAutoVacuum,
  reclaimFreePages,
  truncateLog,
} from './sqlite-compaction';
import {
  DataDirError,
  DataDirInUseError,
  preparePrivateDataDir,
  preparePrivateFiles,
} from './sqlite-data-dir';
import {
  isDatabaseLocked,
  openSqlite,
  type SqliteDatabase,
  SqliteEngineMissingError,
  type SqliteEngineName,
} from './sqlite-engine';
import { createSqliteEntryBooks } from './sqlite-entry-book';
import { measureFootprint, type StoreFootprint } from './sqlite-footprint';
import {
  createGroupCommit,
  type FsyncFunction,
  type GroupCommit,
  type StoreStep,
} from './sqlite-group-commit';
import { type InstanceLock, lockDataDir } from './sqlite-instance-lock';
import { migrate } from './sqlite-schema';
import { createSqliteSortedIndex, prepareIndexStatements } from './sqlite-sorted-index';
import { createValueCodec } from './sqlite-value-encoding';
import { createSqliteWorkQueue, prepareQueueStatements } from './sqlite-work-queue';
import { createWriteBatch } from './sqlite-write-batch';
import { type CounterState, type Store, StoreUnavailableError, type Versioned } from './store';
import type { WorkQueue } from './work-queue';

/** The database's file name inside the data directory. */
export const DATABASE_FILE = 'esim-bff.sqlite';

/** The decoded values kept for reads (`createValueCodec`): the records of the purchases under way. */
const VALUES_KEPT = 1_000;

/** Free pages taken out of the file per step of a sweep's incremental vacuum (4 MB of 4 KB pages). */
const RECLAIM_PAGES_PER_STEP = 1_000;

export interface SqliteStoreOptions {
  /** The data directory; created when missing. */
  dataDir: string;
  /** How often expired rows are swept (they are also ignored when read). */
  sweepIntervalMs?: number;
  /** At most this many rows per table are deleted by one sweep step (a larger backlog takes several steps). */
  sweepBatch?: number;
  /** The engine to use instead of the one this Node.js offers (the benchmark compares both). */
  engine?: SqliteEngineName;
  /** The clock, replaceable in tests. */
  now?: () => number;
  /** Syncs a file to disk (Node's asynchronous `fs.fsync`); replaceable in tests. */
  fsync?: FsyncFunction;
  /** Where a failed sync of the database files is logged (default: standard error). */
  logger?: Logger;
}

/** The embedded store: a {@link Store} with its work queues. */
export interface SqliteStore extends Store {
  /** The work queue `name` (its own keyspace in the database). */
  queue(name: string): WorkQueue;
  /** The data directory's absolute path. */
  readonly dataDir: string;
  /** The SQLite engine in use. */
  readonly engine: SqliteEngineName;
  /** The open database, for the state export and import (`state-transfer.ts`). */
  readonly database: SqliteDatabase;
  /**
   * Sweep the expired rows now and take what was deleted out of the files (the background sweep's work, which
   * runs every `sweepIntervalMs`); resolves once done.
   */
  sweep(): Promise<void>;
  /** Its size on disk, measured after a checkpoint (the benchmark's bytes per purchase). */
  footprint(): Promise<StoreFootprint>;
}

/** Where the store tells the operator what it did or could not do (a logger, else standard error). */
type StoreReport = (
  level: 'info' | 'warn' | 'error',
  message: string,
  fields: Record<string, unknown>,
) => void;

/** Open the database in `dataDir` for this process alone, with its schema up to date. */
function openDatabase(
  dataDir: string,
  engine: SqliteEngineName | undefined,
  report: StoreReport,
): { db: SqliteDatabase; lock: InstanceLock } {
  // Checkouts and travellers' e-mail addresses live here: the folder and its files are the BFF's user's alone.
  preparePrivateDataDir(dataDir);
  const file = join(dataDir, DATABASE_FILE);
  let lock: InstanceLock | undefined;
  let db: SqliteDatabase | undefined;
  try {
    lock = lockDataDir(dataDir, engine);
    preparePrivateFiles(file);
    db = openSqlite(file, { engine });
    // A backup reading meanwhile never holds a lock this process waits for (WAL readers do not block the
    // writer); one that another process holds (an earlier release's BFF held its database alone) fails at once.
    db.exec('PRAGMA busy_timeout = 0');
    // Before the WAL: a new database takes auto-vacuum only before its first page is written.
    eraseDeletedContent(db);
    db.exec('PRAGMA journal_mode = WAL');
    // Commits are not synced by SQLite but by the group commit (the WAL, off the event loop). NORMAL rather than
    // OFF: SQLite still syncs around its checkpoints (the WAL before, the database after), so a checkpoint's pages
    // are on disk before the WAL frames that held them are overwritten — rare (about every thousand pages).
    db.exec('PRAGMA synchronous = NORMAL');
    // Take the lock now (a write transaction), not at the first request.
    db.transaction(() => undefined);
    migrate(db);
    rebuildOnce(db, file, report);
    return { db, lock };
  } catch (error) {
    db?.close();
    lock?.release();
    if (error instanceof SqliteEngineMissingError || error instanceof DataDirError) throw error;
    if (isDatabaseLocked(error)) throw new DataDirInUseError(dataDir, { cause: error });
    throw new DataDirError(
      `cannot open the embedded store ${file} (${(error as Error).message}). Check that the data directory ` +
        'is writable and its files are not damaged, or set ESIM_BFF_DATA_DIR to another folder.',
      { cause: error },
    );
  }
}

/**
 * A database an earlier release wrote is rebuilt once for incremental auto-vacuum (`sqlite-compaction.ts`). A
 * rebuild that fails (a disk without room for a copy of the database) leaves the database as it was: the BFF
 * starts, says so, and tries again at its next start.
 */
function rebuildOnce(db: SqliteDatabase, file: string, report: StoreReport): void {
  const started = performance.now();
  try {
    const rebuilt = rebuildForAutoVacuum(db);
    if (rebuilt === null) return;
    report('info', 'embedded store: rebuilt the database once, so that what it deletes leaves the file', {
      file,
      ...rebuilt,
      ms: Math.round(performance.now() - started),
    });
  } catch (error) {
    report(
      'warn',
      'embedded store: could not rebuild the database for incremental vacuum; deleted rows stay readable in ' +
        'the file until a start succeeds (it needs free space for a copy of the database)',
      { file, error: (error as Error).message },
    );
  }
}

/** Open the embedded store in `options.dataDir`. Throws {@link DataDirError} when it cannot. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
  const sweepBatch = options.sweepBatch ?? 500;
  const now = options.now ?? Date.now;
  const dataDir = resolve(options.dataDir);
  const report: StoreReport = (level, message, fields) => {
    if (options.logger) options.logger[level](message, fields);
    else console.error(message, fields);
  };
  const { db, lock } = openDatabase(dataDir, options.engine, report);
  let closed = false;
  const groupCommit: GroupCommit = createGroupCommit({
    databaseFile: join(dataDir, DATABASE_FILE),
    fsync: options.fsync,
    onSyncFailure(error, writes) {
      const message = 'embedded store: a sync to disk failed; its writes were answered as store_unavailable';
      report('error', message, { dataDir, writes, error: (error as Error).message });
    },
  });

  const statements = {
    get: db.prepare('SELECT value, version FROM entries WHERE key = ? AND expires_at > ?'),
    insert: db.prepare(
      `INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = 1, expires_at = excluded.expires_at
       WHERE entries.expires_at <= ?`,
    ),
    compareAndSet: db.prepare(
      `UPDATE entries SET value = ?, version = version + 1, expires_at = ?
       WHERE key = ? AND version = ? AND expires_at > ?`,
    ),
    compareAndDelete: db.prepare('DELETE FROM entries WHERE key = ? AND version = ? AND expires_at > ?'),
    counter: db.prepare(
      `INSERT INTO counters (key, count, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN counters.expires_at <= ? THEN excluded.count ELSE counters.count + excluded.count END,
         expires_at = CASE WHEN counters.expires_at <= ? THEN excluded.expires_at ELSE counters.expires_at END
       RETURNING count, expires_at`,
    ),
    sweepEntries: db.prepare(
      'DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)',
    ),
    sweepCounters: db.prepare(
      'DELETE FROM counters WHERE key IN (SELECT key FROM counters WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)',
    ),
    sweepPartitions: db.prepare('DELETE FROM queue_partitions WHERE item_count = 0 AND paused_until <= ?'),
    scanKeys: db.prepare(
      'SELECT key FROM entries WHERE key > ? AND key < ? AND expires_at > ? ORDER BY key LIMIT ?',
    ),
    ping: db.prepare('SELECT 1 AS one'),
  };
  const queueStatements = prepareQueueStatements(db);
  const indexStatements = prepareIndexStatements(db);

  const batch = createWriteBatch(db);
  /** The values read and written last, so that reading back what was just kept inflates nothing. */
  const values = createValueCodec(VALUES_KEPT);

  /**
   * Run one synchronous database step as a store operation: a database failure is the store being unavailable.
   * A write joins the turn's transaction; a `durable` one resolves after its commit and the group commit's sync
   * that covers it.
   */
  const run: StoreStep = async (what, work, kind) => {
    if (closed) throw new StoreUnavailableError(`the embedded store is closed (${what})`);
    let step: { result: ReturnType<typeof work>; committed?: Promise<void> };
    try {
      step = kind === 'read' ? { result: work() } : batch.write(work);
    } catch (error) {
      throw new StoreUnavailableError(`the embedded store could not ${what}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (kind === 'durable') {
      await step.committed;
      await groupCommit.durable();
    }
    return step.result;
  };

  /** One bounded sweep step; true when a table had more expired rows than one batch. */
  function sweepStep(): boolean {
    const time = now();
    return db.transaction(() => {
      const entries = Number(statements.sweepEntries.run(time, sweepBatch).changes);
      const counters = Number(statements.sweepCounters.run(time, sweepBatch).changes);
      statements.sweepPartitions.run(time);
      const indexed = Number(indexStatements.sweep.run(time, sweepBatch).changes);
      return entries >= sweepBatch || counters >= sweepBatch || indexed >= sweepBatch;
    });
  }

  /**
   * Sweep the expired rows, then take what was deleted out of the files: the free pages out of the database (the
   * file shrinks), the WAL copied and emptied. A backlog is swept a batch per turn of the event loop, and free
   * pages reclaimed a bounded number at a time, so requests are served in between.
   */
  async function sweepAndCompact(): Promise<void> {
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    while (!closed && sweepStep()) await nextTurn();
    // The turn's writes are committed first: a vacuum step and a checkpoint run outside any transaction.
    const settled = () => {
      batch.commit();
      return !closed;
    };
    while (settled() && reclaimFreePages(db, RECLAIM_PAGES_PER_STEP)) await nextTurn();
    if (settled()) truncateLog(db);
  }

  // One sweep at a time, whoever asks (the background loop or `sweep()`); each starts after the one before ends.
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = (): Promise<void> => {
    sweeping = sweeping.then(sweepAndCompact, sweepAndCompact);
    return sweeping;
  };

  // A failed sweep is retried at the next interval; reads ignore expired rows meanwhile.
  const sweeper = createBackgroundLoop(sweep, { intervalMs: sweepIntervalMs });
  sweeper.start();

  const queues = new Map<string, WorkQueue>();
  const books = createSqliteEntryBooks(db, (what, work, kind) =>
    run(what, work, kind === 'write' ? 'durable' : 'read'),
  );

  return {
    dataDir,
    engine: db.engine,
    database: batch.database,
    sweep,
    compact: sweep,
    footprint: () =>
      run(
        'measure the files',
        () => {
          batch.commit();
          return measureFootprint(db, join(dataDir, DATABASE_FILE));
        },
        'read',
      ),
    get: (key) =>
      run(
        'read a value',
        (): Versioned | null => {
          const row = statements.get.get(key, now());
          return row === undefined
            ? null
            : { value: values.decode(key, row.value), version: Number(row.version) };
        },
        'read',
      ),
    insert: (key, value, ttlMs) =>
      run(
        'insert a value',
        () => {
          const time = now();
          return (
            Number(statements.insert.run(key, values.encode(key, value), time + ttlMs, time).changes) === 1
          );
        },
        'durable',
      ),
    compareAndSet: (key, expectedVersion, value, ttlMs) =>
      run(
        'update a value',
        () => {
          const time = now();
          return (
            Number(
              statements.compareAndSet.run(
                values.encode(key, value),
                time + ttlMs,
                key,
                expectedVersion,
                time,
              ).changes,
            ) === 1
          );
        },
        'durable',
      ),
    compareAndDelete: (key, expectedVersion) =>
      run(
        'delete a value',
        () => Number(statements.compareAndDelete.run(key, expectedVersion, now()).changes) === 1,
        'durable',
      ),
    increment: (key, by, windowMs) =>
      run('count', (): CounterState => {
        const time = now();
        // Counters (rate limits) are counted on every request: their commit does not wait for a sync. It is in
        // the operating system's hands as its turn ends (a process killed within that turn loses its counts), and
        // synced with the next write that waits, so a power cut can lose only the last instants of a window.
        const row = statements.counter.get(key, by, time + windowMs, time, time);
        return { count: Number(row?.count), resetInMs: Number(row?.expires_at) - time };
      }),
    queue(name) {
      let queue = queues.get(name);
      if (queue === undefined) {
        queue = createSqliteWorkQueue(db, queueStatements, name, run, now);
        queues.set(name, queue);
      }
      return queue;
    },
    // Not kept per name: an index is a name over shared statements, and names are many (one per e-mail address).
    sortedIndex: (name) => createSqliteSortedIndex(indexStatements, name, run, now),
    entryBook: (name) => books.book(name),
    scanKeys: (prefix, cursor, count) =>
      run(
        'list keys',
        () => {
          // Keys are ASCII: every key with the prefix sorts below the prefix followed by the highest code point.
          const rows = statements.scanKeys.all(cursor ?? prefix, `${prefix}\u{10ffff}`, now(), count);
          const keys = rows.map((row) => String(row.key));
          return { keys, cursor: keys.length < count ? null : (keys.at(-1) ?? null) };
        },
        'read',
      ),
    async ping() {
      if (closed) return false;
      try {
        return statements.ping.get()?.one === 1;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await sweeper.close();
      await sweeping.catch(() => undefined);
      batch.commit();
      // The writes already made are answered by their sync before the files close.
      await groupCommit.close();
      db.close();
      lock.release();
    },
  };
}
