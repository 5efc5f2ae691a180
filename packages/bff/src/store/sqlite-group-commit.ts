/**
 * @module
 * Group commit for the embedded store: the durability of its writes, off the event loop. SQLite commits every
 * write at once without syncing (WAL, `synchronous=NORMAL`: the commit is in the operating system's page cache, so
 * a killed process already keeps it); the write's promise then waits on {@link GroupCommit.durable}, which
 * collects the writes of one turn of the event loop and resolves them all after ONE sync of the database files
 * with Node's asynchronous `fs.fsync` (on libuv's thread pool, so the process serves other requests meanwhile):
 * the main database file first, then the `-wal` file, so that pages a checkpoint copied into the database are on
 * disk before the log that held them is trusted again. A write that arrives while a sync runs joins the next batch.
 *
 * A failed sync (an I/O error of the disk) rejects every write of its batch with {@link StoreUnavailableError} and
 * is logged: those writes are committed in the database and will be read back, but the disk did not confirm them,
 * so the BFF answers them as a store failure (the caller retries, and the store's compare-and-set and idempotency
 * records make the retry safe). A later sync that succeeds covers them again.
 *
 * The files are opened once and held open until the store closes: closing any descriptor of the database file
 * would drop SQLite's POSIX locks on it (they belong to the process, not to the descriptor).
 */
import { fsync as fsyncCallback } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { StoreUnavailableError } from './store';

/** Syncs one open file descriptor to disk; replaceable in tests. */
export type FsyncFunction = (fd: number) => Promise<void>;

/** Node's `fs.fsync`, on the thread pool. */
export const nodeFsync: FsyncFunction = promisify(fsyncCallback);

export interface GroupCommitOptions {
  /** The database file; its `-wal` file is synced after it. */
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
  const files = [options.databaseFile, `${options.databaseFile}-wal`];
  const handles: (FileHandle | null)[] = [null, null];
  let directorySynced = false;
  let collecting: Batch | null = null;
  let running: Promise<void> | null = null;
  let syncs = 0;

  /** Sync both files, opening each at its first sync (the WAL appears with the first write). */
  async function syncFiles(): Promise<void> {
    for (const [index, file] of files.entries()) {
      if (handles[index] === null) {
        handles[index] = await openIfPresent(file);
      }
      const handle = handles[index];
      if (handle) await fsync(handle.fd);
    }
    // A newly created WAL's name is durable only once its directory is synced: once per store is enough.
    if (!directorySynced && handles[1] !== null) {
      const directory = await open(dirname(options.databaseFile), 'r');
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
      for (const [index, handle] of handles.entries()) {
        handles[index] = null;
        await handle?.close();
      }
    },
    get syncs() {
      return syncs;
    },
  };
}
