/**
 * @module
 * What the embedded store's files hold once a traveller's rows are gone, on whichever SQLite engine opened them
 * (the store tests run it here, the engines' test on Node.js 24's `node:sqlite`): rows holding an e-mail address
 * written, one rewritten without it, one deleted, the rest expired; the store's clock moved past their expiry and
 * its sweep run. Answers what the tests assert: where the address's bytes still are — as written, or as the store
 * keeps the rows (large values compressed) — the file's size before and after, and the files' modes.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, type SqliteStore } from '../src/store/sqlite-store';
import { encodeValue } from '../src/store/sqlite-value-encoding';

/** The address written into the rows (distinctive: it appears nowhere else in a store). */
export const ERASED_ADDRESS = 'erased.traveller+36@example.org';

/** What the data folder held after the sweep. */
export interface DiskAfterErasure {
  engine: string;
  /**
   * Files of the data folder that still hold {@link ERASED_ADDRESS} or a piece of a gone row as the store kept it
   * (a compressed row holds the address in no readable form), with how often.
   */
  addressFoundIn: Record<string, number>;
  /** The database file's size with the rows checkpointed into it, then after the sweep. */
  bytesBefore: number;
  bytesAfter: number;
  /** Every file in the data folder, with its permission bits (octal, as `ls` shows them), after the writes. */
  modes: Record<string, string>;
  /** The folder's permission bits. */
  folderMode: string;
  /** The settings the store opened the database with. */
  autoVacuum: number;
  secureDelete: number;
  /** A row that did not expire reads back after the sweep. */
  keptReadsBack: boolean;
}

/** How often `needle` occurs in `bytes`. */
function occurrences(bytes: Buffer, needle: string): number {
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count += 1;
  return count;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** 32 bytes from the middle of `value` as the store keeps it: found in a file only where that row's bytes are. */
function storedPiece(value: string): Buffer {
  const stored = Buffer.from(encodeValue(value));
  const middle = Math.floor(stored.length / 2);
  return stored.subarray(middle, middle + 32);
}

/**
 * Run the scenario on a store `open` opens with the clock it is given (a new data folder each time); `rows` rows
 * of a checkout's size or more (values of some 3 KB that compression takes to some 2 KB: their padding is random).
 */
export async function eraseFromDisk(
  open: (now: () => number) => SqliteStore,
  rows = 600,
): Promise<DiskAfterErasure> {
  let time = 1_800_000_000_000;
  const store = open(() => time);
  try {
    const folder = store.dataDir;
    const file = join(folder, DATABASE_FILE);
    const erased: string[] = [];
    const value = (index: number) => {
      const written = JSON.stringify({
        id: `chk_${index}`,
        email: ERASED_ADDRESS,
        plan: randomBytes(2_250).toString('base64url'),
      });
      erased.push(written);
      return written;
    };
    await Promise.all(
      Array.from({ length: rows }, (_, index) => store.insert(`checkout:${index}`, value(index), 60_000)),
    );
    await store.insert('checkout:kept', JSON.stringify({ id: 'kept', plan: 'y'.repeat(3_000) }), 3_600_000);
    // A row rewritten without the address, and one deleted: both before any of them expires.
    await store.insert('checkout:rewritten', value(-1), 3_600_000);
    await store.compareAndSet(
      'checkout:rewritten',
      1,
      JSON.stringify({ id: 'rewritten', email: null }),
      3_600_000,
    );
    await store.insert('checkout:deleted', value(-2), 3_600_000);
    await store.compareAndDelete('checkout:deleted', 1);
    const modes = Object.fromEntries(
      readdirSync(folder).map((name) => [name, octal(statSync(join(folder, name)).mode)]),
    );
    // The rows in the database file itself, as a checkpoint leaves them, for the size before.
    store.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const bytesBefore = statSync(file).size;

    time += 120_000;
    await store.sweep();

    const addressFoundIn: Record<string, number> = {};
    const pieces = erased.map(storedPiece);
    for (const name of readdirSync(folder)) {
      const bytes = readFileSync(join(folder, name));
      const found =
        occurrences(bytes, ERASED_ADDRESS) +
        pieces.reduce((sum, piece) => sum + (bytes.includes(piece) ? 1 : 0), 0);
      if (found > 0) addressFoundIn[name] = found;
    }
    const pragma = (name: string) => Number(store.database.prepare(`PRAGMA ${name}`).get()?.[name]);
    return {
      engine: store.engine,
      addressFoundIn,
      bytesBefore,
      bytesAfter: statSync(file).size,
      modes,
      folderMode: octal(statSync(folder).mode),
      autoVacuum: pragma('auto_vacuum'),
      secureDelete: pragma('secure_delete'),
      keptReadsBack: (await store.get('checkout:kept')) !== null,
    };
  } finally {
    await store.close();
  }
}
