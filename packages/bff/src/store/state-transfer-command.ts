/**
 * @module
 * `server.mjs export-state` and `server.mjs import-state`: the state of the store the environment names
 * (Redis with `ESIM_BFF_REDIS_URL`, else the embedded store in `ESIM_BFF_DATA_DIR`) written as lines of JSON —
 * to the file `--output` names, or to stdout — or read from stdin into it. Moving from the embedded store to
 * Redis: stop the BFF, export with the data directory, import with the Redis URL, start the instances on Redis.
 * The partner lists' indexes are not moved: the BFF indexes the imported checkouts when it next starts. An export
 * holds travellers' e-mail addresses: its file is its user's alone (`0600`), as the database is.
 */
import { existsSync, fchmodSync, fstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { redisStateTransfer } from './redis-state-transfer';
import { redisTargetFromEnvironment } from './redis-target';
import { createPrivateFile, DataDirInUseError, PRIVATE_FILE_MODE } from './sqlite-data-dir';
import { sqliteStateTransfer } from './sqlite-state-transfer';
import { DATABASE_FILE } from './sqlite-store';
import { parseStateLines, type StateTransfer, stateHeader } from './state-transfer';
import { INDEXED_KINDS, STORE_KEYS } from './store';
import { type ChosenStore, DEFAULT_DATA_DIR, openStoreFromEnvironment } from './store-from-environment';

/** What an export holds, said wherever one is written. */
const PERSONAL_DATA_NOTICE =
  'The export holds personal data (travellers’ e-mail addresses, their checkouts): keep it as you keep the ' +
  'database — readable by its owner alone (0600), never in a shared folder — and delete it once imported.';

/** `export-state --help`. */
const EXPORT_USAGE = `Usage: node server.mjs export-state [--output <file>]

Writes the state of the store the environment names (ESIM_BFF_REDIS_URL, else the embedded store in
ESIM_BFF_DATA_DIR; stop the BFF first — to copy the embedded store while the BFF serves, use
\`node server.mjs backup <file>\`) as lines of JSON, to <file> (created for its owner alone, 0600; never
overwritten) or to standard output (a file it is redirected into is made 0600 too).
${PERSONAL_DATA_NOTICE}
`;

/** The commands, by their name on the command line. */
export const STATE_COMMANDS = ['export-state', 'import-state'] as const;
export type StateCommand = (typeof STATE_COMMANDS)[number];

export function isStateCommand(argument: string | undefined): argument is StateCommand {
  return (STATE_COMMANDS as readonly string[]).includes(argument ?? '');
}

/** Write `text`, waiting when the pipe is full (an export of a large state). */
async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
}

/** Where an export goes: a stream, what to call it in the report, and how to finish with it. */
interface ExportTarget {
  stream: Writable;
  name: string;
  close(): Promise<void>;
}

/** The file `export-state --output <file>` names (undefined: stdout); any other argument is refused. */
function outputFileOf(args: readonly string[]): string | undefined {
  const [option, value] = args;
  if (option === undefined) return undefined;
  if (args.length === 1 && option.startsWith('--output=') && option.length > '--output='.length) {
    return option.slice('--output='.length);
  }
  if (args.length === 2 && option === '--output' && value) return value;
  throw new Error(`export-state takes one option, --output <file> (given: ${args.join(' ')}); see --help`);
}

/**
 * The export's target, its owner's alone: the file `--output` names, created `0600` (an existing file is
 * refused, never overwritten), or stdout — narrowed to `0600` when the shell redirected it into a file.
 */
async function exportTarget(
  file: string | undefined,
  stdout: Writable & { fd?: unknown },
): Promise<ExportTarget> {
  if (file === undefined) {
    if (typeof stdout.fd === 'number' && fstatSync(stdout.fd).isFile()) {
      // The shell created the file with its umask before this process ran: narrowed before a byte is written.
      try {
        fchmodSync(stdout.fd, PRIVATE_FILE_MODE);
      } catch (error) {
        throw new Error(
          `cannot make the file standard output goes to readable by its owner alone (${(error as Error).message}): ` +
            'export with --output <file> instead',
          { cause: error },
        );
      }
    }
    return { stream: stdout, name: 'standard output', close: async () => {} };
  }
  const path = resolve(file);
  const handle = await createPrivateFile(path);
  const stream = handle.createWriteStream();
  return {
    stream,
    name: path,
    close: () =>
      new Promise<void>((done, failed) => {
        stream.once('error', failed);
        stream.end(() => done());
      }),
  };
}

/**
 * The store the environment names. A data directory a BFF serves from is refused; for an export, the refusal says
 * how to copy the store without stopping the BFF.
 */
function openStoreOrSayWhy(command: StateCommand, env: NodeJS.ProcessEnv): ChosenStore {
  try {
    return openStoreFromEnvironment(env);
  } catch (error) {
    if (command !== 'export-state' || !(error instanceof DataDirInUseError)) throw error;
    throw new Error(
      `the data directory ${error.dataDir} is in use by another BFF process: export-state reads the store of ` +
        'a stopped BFF (to move it to Redis). For a copy while the BFF serves, take a backup instead: ' +
        '`node server.mjs backup <file>` (restored with `node server.mjs restore <file>`); or stop the BFF, ' +
        'then export.',
      { cause: error },
    );
  }
}

/**
 * Run one command with the arguments after its name; resolves with the process's exit code.
 * `io.stdout` may carry its file descriptor (`process.stdout` does): an export redirected into a file is narrowed.
 */
export async function runStateCommand(
  command: StateCommand,
  env: NodeJS.ProcessEnv,
  io: { stdin: Readable; stdout: Writable & { fd?: unknown }; stderr: Writable },
  args: readonly string[] = [],
): Promise<number> {
  if (command === 'export-state' && (args[0] === '--help' || args[0] === '-h')) {
    io.stdout.write(EXPORT_USAGE);
    return 0;
  }
  if (command === 'import-state' && args.length > 0) {
    throw new Error(
      `import-state takes no option: it reads the export on standard input (given: ${args.join(' ')})`,
    );
  }
  const outputFile = command === 'export-state' ? outputFileOf(args) : undefined;
  // An export from a data directory that is not there is a mistyped path, not an empty state.
  const dataDir = resolve(env.ESIM_BFF_DATA_DIR || DEFAULT_DATA_DIR);
  const onRedis = redisTargetFromEnvironment(env) !== null;
  if (command === 'export-state' && !onRedis && !existsSync(join(dataDir, DATABASE_FILE))) {
    throw new Error(`no embedded store in ${dataDir} (set ESIM_BFF_DATA_DIR to the folder the BFF ran with)`);
  }
  const chosen = openStoreOrSayWhy(command, env);
  let transfer: StateTransfer & { close?: () => Promise<void> };
  if (chosen.kind === 'embedded') transfer = sqliteStateTransfer(chosen.store);
  else transfer = redisStateTransfer({ target: chosen.target, store: chosen.store });
  try {
    if (command === 'export-state') {
      const target = await exportTarget(outputFile, io.stdout);
      let count = 0;
      try {
        await write(target.stream, `${JSON.stringify(stateHeader(chosen.kind))}\n`);
        for await (const record of transfer.exportState()) {
          await write(target.stream, `${JSON.stringify(record)}\n`);
          count += 1;
        }
      } finally {
        await target.close();
      }
      io.stderr.write(
        `exported ${count} records from the ${chosen.kind} store to ${target.name}.\n${PERSONAL_DATA_NOTICE}\n`,
      );
    } else {
      const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      const counts = await transfer.importState(parseStateLines(lines));
      // The partner lists' indexes are not moved: the BFF's next start indexes the records imported. The marks
      // are deleted here whichever store set them (the exports leave them out; this store may have its own).
      // (A kind's marks all start with its unversioned mark's name: one per key its names were built under.)
      for (const kind of INDEXED_KINDS) {
        let cursor: string | null = null;
        do {
          const page: { keys: string[]; cursor: string | null } = await chosen.store.scanKeys(
            STORE_KEYS.indexBuilt(kind),
            cursor,
            100,
          );
          for (const mark of page.keys) {
            const built = await chosen.store.get(mark);
            if (built !== null) await chosen.store.compareAndDelete(mark, built.version);
          }
          cursor = page.cursor;
        } while (cursor !== null);
      }
      const imported = Object.entries(counts.imported)
        .map(([type, count]) => `${count} ${type}`)
        .join(', ');
      io.stderr.write(
        `imported into the ${chosen.kind} store: ${imported}; kept ${counts.kept} already there\n`,
      );
    }
    return 0;
  } finally {
    await transfer.close?.();
    await chosen.store.close();
  }
}
