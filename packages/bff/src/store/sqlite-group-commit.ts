/**
 * @module
 * Group commit for the embedded store: the durability of its writes, off the event loop. SQLite commits every
 * write at once without syncing it (WAL, `synchronous=NORMAL`: the commit is in the operating system's page cache,
 * so a killed process already keeps it); the write's promise then waits on {@link GroupCommit.durable}, which
 * collects the writes of one turn of the event loop and resolves them all after ONE `fsync` of the `-wal` file
 * with Node's asynchronous `fs.fsync` (on libuv's thread pool, so the process serves other requests meanwhile).
 * A write that arrives while a sync runs joins the next batch.
 *
 * Only the WAL needs it: in WAL mode a commit writes nothing else, and the main database file is written only by
 * a checkpoint, which SQLite itself syncs at `synchronous=NORMAL` — the WAL before it copies pages into the
 * database, the database before the WAL's frames are overwritten — so a checkpoint's pages are on disk before the
 * log that held them is reused (a checkpoint runs about every thousand pages written, on the event loop: rare).
 * The WAL's directory is synced once, so that the file's name is durable too.
 *
 * A failed sync (an I/O error of the disk) rejects every write of its batch with {@link StoreUnavailableError} and
 * is logged: those writes are committed in the database and will be read back, but the disk did not confirm them,
 * so the BFF answers them as a store failure (the caller retries, and the store's compare-and-set and idempotency
 * records make the retry safe). A later sync that succeeds covers them again.
 *
 * The WAL is opened once and held open until the store closes (so is never the database file: closing any
 * descriptor of it would drop SQLite's POSIX locks on it, which belong to the process, not to a descriptor).
 */
import { fsync as fsyncCallback } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { StoreUnavailableError } from './store';

/**
 * How a store operation runs (the embedded store's, given to its index and queue): a write joins the turn's
 * transaction (`sqlite-write-batch.ts`), and a `durable` one resolves only after that transaction's commit and a
 * sync that covers it — this file's group commit; a `read` runs as it is.
 */
export type StoreStep = <T>(what: string, work: () => T, kind?: 'durable' | 'read') => Promise<T>;

/** Syncs one open file descriptor to disk; replaceable in tests. */
export type FsyncFunction = (fd: number) => Promise<void>;

/** Node's `fs.fsync`, on the thread pool. */
export const nodeFsync: FsyncFunction = promisify(fsyncCallback);

export interface GroupCommitOptions {
  /** The database file; its `-wal` file is the one synced. */
  databaseFile: string;
  fsync?: FsyncFunction;
  /** Told of a failed sync (the writes it rejected). */
  onSyncFailure?: (error: unknown, writes: number) => void;
}

/** The syncs of one database's writes, batched. */
export interface GroupCommit {
  /** Resolves once a sync that began after this call has reached the disk; rejects when that sync failed. */
  durable(): Promise<void>;
  /** Waits for the batches already asked for, then closes the files (call after the database is closed). */
  close(): Promise<void>;
  /** Syncs run so far (for tests and the benchmark). */
  readonly syncs: number;
}

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
  writes: number;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject, writes: 0 };
}

/** `path` opened for reading, or null when the file does not exist (yet). */
async function openIfPresent(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Group commit for the database at `options.databaseFile`. */
export function createGroupCommit(options: GroupCommitOptions): GroupCommit {
  const fsync = options.fsync ?? nodeFsync;
  const walFile = `${options.databaseFile}-wal`;
  let wal: FileHandle | null = null;
  let directorySynced = false;
  let collecting: Batch | null = null;
  let running: Promise<void> | null = null;
  let syncs = 0;

  /** Sync the WAL, opening it at its first sync (it appears with the first write). */
  async function syncFiles(): Promise<void> {
    wal ??= await openIfPresent(walFile);
    if (wal === null) return;
    await fsync(wal.fd);
    // A newly created WAL's name is durable only once its directory is synced: once per store is enough.
    if (!directorySynced) {
      const directory = await open(dirname(walFile), 'r');
      try {
        await fsync(directory.fd);
      } finally {
        await directory.close();
      }
      directorySynced = true;
    }
  }

  /** Sync for the batch collected so far; the next batch starts when this sync ends. */
  async function flush(): Promise<void> {
    const batch = collecting;
    collecting = null;
    if (batch === null) return;
    try {
      await syncFiles();
      syncs += 1;
      batch.resolve();
    } catch (error) {
      options.onSyncFailure?.(error, batch.writes);
      batch.reject(
        new StoreUnavailableError(
          `the embedded store could not sync its files to disk: ${(error as Error).message}`,
          { cause: error },
        ),
      );
    }
  }

  /** Run syncs one after another while batches are waiting. */
  function startSyncing(): void {
    running = (async () => {
      // One turn of the event loop: the writes of this turn join the batch before its sync begins.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (collecting !== null) await flush();
      running = null;
    })();
  }

  return {
    durable() {
      collecting ??= newBatch();
      collecting.writes += 1;
      const { promise } = collecting;
      if (running === null) startSyncing();
      return promise;
    },
    async close() {
      while (running !== null) await running;
      const handle = wal;
      wal = null;
      await handle?.close();
    },
    get syncs() {
      return syncs;
    },
  };
}
