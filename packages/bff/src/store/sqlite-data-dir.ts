/**
 * @module
 * The embedded store's data folder and files, kept to the BFF's user alone: checkouts and travellers' e-mail
 * addresses live there. A folder the store creates is `0700`; one it finds open to its group or to others is
 * refused, with the `chmod` that fixes it. The database file is created `0600` before SQLite opens it, whatever
 * the umask, and SQLite gives the WAL and shared-memory files it creates the database file's mode; files an
 * earlier release left readable are narrowed at start. A copy of the store written elsewhere (a backup, an export)
 * is created the same way: {@link createPrivateFile}.
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  mkdirSync,
  openSync,
  statSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The data directory cannot be used: the message says which and why, and what to do. */
export class DataDirError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DataDirError';
  }
}

/** Another process holds the data directory: a BFF serving from it (or a restore writing into it). */
export class DataDirInUseError extends DataDirError {
  constructor(
    readonly dataDir: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the data directory ${dataDir} is in use by another BFF process. One embedded store serves one ` +
        'instance: stop the other process, give this one its own ESIM_BFF_DATA_DIR, or run several ' +
        'instances on Redis (ESIM_BFF_REDIS_URL).',
      options,
    );
    this.name = 'DataDirInUseError';
  }
}

/** The data folder's mode: its owner alone may list, enter and write it. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** The mode of every file the store writes: its owner alone may read and write it. */
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database (WAL, shared memory, rollback journal). */
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

/** `path` as a shell word, quoted only when it needs to be (for a command the operator copies). */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * Make sure `dataDir` exists and is its owner's alone: created `0700` when missing; refused with a
 * {@link DataDirError} naming the `chmod 700` to run when its group or others may read, write or enter it.
 */
export function preparePrivateDataDir(dataDir: string): void {
  try {
    // `mkdirSync` answers the first folder it created, undefined when the folder was there already.
    const created = mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    // The mode given to mkdir passes through the umask: set it explicitly.
    if (created !== undefined) chmodSync(dataDir, PRIVATE_FOLDER_MODE);
  } catch (error) {
    throw new DataDirError(
      `cannot create the data directory ${dataDir} (${(error as Error).message}). Set ESIM_BFF_DATA_DIR to a ` +
        'folder this process can write, or ESIM_BFF_REDIS_URL to keep state in Redis.',
      { cause: error },
    );
  }
  const found = statSync(dataDir);
  if (!found.isDirectory()) {
    throw new DataDirError(
      `the data directory ${dataDir} is not a folder. Set ESIM_BFF_DATA_DIR to a folder, or ESIM_BFF_REDIS_URL ` +
        'to keep state in Redis.',
    );
  }
  const mode = found.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new DataDirError(
      `the data directory ${dataDir} is open to other users of this host (mode ${mode.toString(8).padStart(4, '0')}): ` +
        'it holds checkouts and travellers’ e-mail addresses, so the BFF keeps it to its own user. Run ' +
        `\`chmod 700 ${shellWord(dataDir)}\` (as the folder's owner, the user the BFF runs as), then start again.`,
    );
  }
}

/**
 * Give the database file at `databaseFile` the mode `0600` before SQLite opens it — created so when missing —
 * and narrow the WAL, shared-memory and journal files an earlier release may have left readable.
 */
export function preparePrivateFiles(databaseFile: string): void {
  // Opened for appending: created when missing, never truncated. Closed before SQLite opens the file, so this
  // descriptor's close cannot drop SQLite's locks.
  const descriptor = openSync(databaseFile, 'a', PRIVATE_FILE_MODE);
  try {
    fchmodSync(descriptor, PRIVATE_FILE_MODE);
  } finally {
    closeSync(descriptor);
  }
  for (const suffix of COMPANION_SUFFIXES) {
    const companion = `${databaseFile}${suffix}`;
    if (existsSync(companion)) chmodSync(companion, PRIVATE_FILE_MODE);
  }
}

/**
 * Create the file at `path` for its owner alone (`0600`, whatever the umask) and open it for writing. A file that
 * is there already is refused, never written into: it may be another user's, or an older copy readable by others.
 */
export async function createPrivateFile(path: string): Promise<FileHandle> {
  const absolute = resolve(path);
  let handle: FileHandle;
  try {
    handle = await open(
      absolute,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      PRIVATE_FILE_MODE,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new Error(`${absolute} exists already: delete it or move it away, or name another file`);
    }
    if (code === 'ENOENT') {
      throw new Error(`cannot create ${absolute}: its folder ${dirname(absolute)} does not exist`, {
        cause: error,
      });
    }
    throw error;
  }
  // The mode given to open passes through the umask: set it explicitly.
  await handle.chmod(PRIVATE_FILE_MODE);
  return handle;
}
