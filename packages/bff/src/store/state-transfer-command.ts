/**
 * @module
 * `server.mjs export-state` and `server.mjs import-state`: the state of the store the environment names
 * (Redis with `ESIM_BFF_REDIS_URL`, else the embedded store in `ESIM_BFF_DATA_DIR`) written to stdout as lines
 * of JSON, or read from stdin into it. Moving from the embedded store to Redis: stop the BFF, export with the
 * data directory, import with the Redis URL, start the instances on Redis. The partner lists' indexes are not
 * moved: the BFF indexes the imported checkouts when it next starts.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { redisStateTransfer } from './redis-state-transfer';
import { sqliteStateTransfer } from './sqlite-state-transfer';
import { DATABASE_FILE } from './sqlite-store';
import { parseStateLines, type StateTransfer, stateHeader } from './state-transfer';
import { INDEXED_KINDS, STORE_KEYS } from './store';
import { DEFAULT_DATA_DIR, openStoreFromEnvironment } from './store-from-environment';

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

/** Run one command; resolves with the process's exit code. */
export async function runStateCommand(
  command: StateCommand,
  env: NodeJS.ProcessEnv,
  io: { stdin: Readable; stdout: Writable; stderr: Writable },
): Promise<number> {
  // An export from a data directory that is not there is a mistyped path, not an empty state.
  const dataDir = resolve(env.ESIM_BFF_DATA_DIR || DEFAULT_DATA_DIR);
  if (command === 'export-state' && !env.ESIM_BFF_REDIS_URL && !existsSync(join(dataDir, DATABASE_FILE))) {
    throw new Error(`no embedded store in ${dataDir} (set ESIM_BFF_DATA_DIR to the folder the BFF ran with)`);
  }
  const chosen = openStoreFromEnvironment(env);
  let transfer: StateTransfer & { close?: () => Promise<void> };
  if (chosen.kind === 'embedded') transfer = sqliteStateTransfer(chosen.store);
  else transfer = redisStateTransfer({ url: chosen.url, store: chosen.store });
  try {
    if (command === 'export-state') {
      await write(io.stdout, `${JSON.stringify(stateHeader(chosen.kind))}\n`);
      let count = 0;
      for await (const record of transfer.exportState()) {
        await write(io.stdout, `${JSON.stringify(record)}\n`);
        count += 1;
      }
      io.stderr.write(`exported ${count} records from the ${chosen.kind} store\n`);
    } else {
      const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      const counts = await transfer.importState(parseStateLines(lines));
      // The partner lists' indexes are not moved: the BFF's next start indexes the records imported. The marks
      // are deleted here whichever store set them (the exports leave them out; this store may have its own).
      for (const kind of INDEXED_KINDS) {
        const built = await chosen.store.get(STORE_KEYS.indexBuilt(kind));
        if (built !== null) await chosen.store.compareAndDelete(STORE_KEYS.indexBuilt(kind), built.version);
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
