/**
 * A process killed (`SIGKILL`) in the middle of the ledger's work — holds proposed, approved, refused, paid,
 * declined, settled and released by eight lanes at once — leaves the account's book whole, on the embedded store
 * and on Redis: every total equals what its entries count, every mark is an entry's. A proposal the process
 * never made or took back counts (as a hold not yet approved counts for every other decision) until its short
 * time is up; then nothing of the dead process counts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import { createReservationLedger, fundingBookName } from './reservation-ledger';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const module = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
/** The ledger's clock in the killed process: it starts here and moves 10 ms per purchase. */
const STARTS_AT = 1_800_000_000_000;

/** Eight lanes of purchases on one account until killed; says `ready` after 300 of them. */
const WORKER = `
const { openSqliteStore } = await import(${module('../store/sqlite-store.ts')});
const { createRedisStore } = await import(${module('../store/redis-store.ts')});
const { createReservationLedger } = await import(${module('./reservation-ledger.ts')});
const [kind, where, keyPrefix] = process.argv.slice(1);
const store = kind === 'sqlite'
  ? openSqliteStore({ dataDir: where })
  : createRedisStore({ url: where, keyPrefix, connectWaitMs: 5000, commandTimeoutMs: 5000 });
let now = ${STARTS_AT};
const ledger = createReservationLedger(store, 'acct', () => now);
const usd = { amountMinor: 300, currency: 'USD' };
const approve = () => { if (Math.random() < 0.2) throw new Error('refused'); };
let done = 0;
async function lane(first) {
  for (let index = first; ; index += 8) {
    now += 10;
    const id = 'chk_' + index;
    const holder = { address: 'addr-' + (index % 40), session: 'sess-' + index };
    try {
      await ledger.hold(id, { amount: usd, holdUntilMs: now + 600000, unpaidBy: holder }, approve, 0);
      await ledger.startPayment(id, { amount: usd, untilMs: now + 120000, attempt: 1, holder }, approve, 0);
      if (index % 3 === 0) await ledger.endPayment(id, 1);
      else {
        await ledger.hold(id, { amount: usd, holdUntilMs: now + 3600000, unpaidBy: null }, approve, 0);
        if (index % 2 === 0) await ledger.settle(id, now);
        else await ledger.release(id);
      }
    } catch {}
    done += 1;
    if (done === 300) process.stdout.write('ready\\n');
  }
}
for (let first = 0; first < 8; first += 1) void lane(first);
`;

/** Run the worker on `args` and kill it once it has done 300 purchases, in the middle of the next ones. */
async function killedMidWork(args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WORKER, ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_, signal) => resolve(signal)),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`the worker ended by itself (${code})`)));
    });
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited).toBe('SIGKILL');
}

/** The book as stored: its entries' values, its totals (the month's spend left out: no entry's) and marks. */
interface StoredBook {
  entries: string[];
  totals: Record<string, number>;
  marks: string[];
}

/** Every total equal to what the entries count, every mark an entry's and every entry's mark there. */
function expectWhole(book: StoredBook): void {
  const summed: Record<string, number> = {};
  const marks = new Set<string>();
  for (const raw of book.entries) {
    const { counted } = JSON.parse(raw);
    for (const [name, value] of Object.entries(counted.totals as Record<string, number>))
      summed[name] = (summed[name] ?? 0) + value;
    for (const mark of counted.marks as string[]) marks.add(mark);
  }
  const nonZero = (totals: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(totals).filter(([name, value]) => value !== 0 && !name.startsWith('spent:')),
    );
  expect(nonZero(book.totals)).toEqual(nonZero(summed));
  expect([...book.marks].sort()).toEqual([...marks].sort());
}

let redis: RunningRedis;
const root = mkdtempSync(join(tmpdir(), 'esim-ledger-crash-'));
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** After the kill: whole as left, and nothing of the dead process counting once its proposals' time is up. */
async function expectWholeAfterKill(store: Store, read: () => Promise<StoredBook>): Promise<void> {
  const left = await read();
  expect(left.entries.length).toBeGreaterThan(0);
  expectWhole(left);
  // A day later on the ledger's clock: every hold and proposal ended, the book brought up to date as it is read.
  const later = createReservationLedger(store, 'acct', () => STARTS_AT + 24 * 60 * 60_000);
  expect(await later.held('USD', 0)).toMatchObject({ amountMinor: 0, count: 0, unpaidCount: 0 });
  const after = await read();
  expectWhole(after);
  expect(after.entries).toEqual([]);
}

describe('a process killed in the middle of the ledger’s work', () => {
  it('leaves the embedded store’s book whole', async () => {
    const dataDir = mkdtempSync(join(root, 'data-'));
    await killedMidWork(['sqlite', dataDir]);
    const store = openSqliteStore({ dataDir });
    try {
      const book = fundingBookName('acct');
      const db = store.database;
      await expectWholeAfterKill(store, async () => ({
        entries: db
          .prepare('SELECT value FROM book_entries WHERE book = ?')
          .all(book)
          .map((row) => String(row.value)),
        totals: Object.fromEntries(
          db
            .prepare('SELECT name, value FROM book_totals WHERE book = ?')
            .all(book)
            .map((row) => [String(row.name), Number(row.value)]),
        ),
        marks: db
          .prepare('SELECT mark FROM book_marks WHERE book = ?')
          .all(book)
          .map((row) => String(row.mark)),
      }));
    } finally {
      await store.close();
    }
  }, 60_000);

  it('leaves the Redis book whole', async () => {
    const keyPrefix = `crash-${Math.random()}:`;
    await killedMidWork(['redis', redis.url, keyPrefix]);
    const store = createRedisStore({ url: redis.url, keyPrefix, connectWaitMs: 5_000 });
    const client = new Redis(redis.url);
    try {
      const tag = `${keyPrefix}book:{${fundingBookName('acct')}}`;
      await expectWholeAfterKill(store, async () => ({
        entries: Object.values(await client.hgetall(`${tag}:entries`)),
        totals: Object.fromEntries(
          Object.entries(await client.hgetall(`${tag}:totals`)).map(([name, value]) => [name, Number(value)]),
        ),
        marks: await client.zrange(`${tag}:marks`, '0', '-1'),
      }));
    } finally {
      client.disconnect();
      await store.close();
    }
  }, 60_000);
});
