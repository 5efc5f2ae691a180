/**
 * Moving a BFF from the embedded store to Redis (docs/deployment.md): a sale made on the embedded store is
 * exported with `export-state` (the data directory), imported with `import-state` into a real redis-server, and
 * a BFF on Redis then serves it — the partner API reads the checkout and the traveller's manage link opens. The
 * way back (Redis to a new data directory) keeps every value with its version. The funding ledger's entry books
 * move whole both ways (the sale's month spend among their totals), and a second import keeps a book the target
 * holds. Bad input is refused by line.
 */
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { MANAGE_TOKEN_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim } from '../../testing/after-sale-flow';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { call, openWidget, PARTNER_SECRET, type Stack, startBff, startStack } from '../../testing/stack';
import { createRedisStore } from './redis-store';
import { openSqliteStore } from './sqlite-store';
import type { StateRecord } from './state-transfer';
import { runStateCommand, type StateCommand } from './state-transfer-command';
import { STORE_KEYS, type Store } from './store';
import { QUEUE_NAMES } from './work-queue';

/** The entry books of an export: each as its record says, and the same read through a store's own API. */
function booksOf(stdout: string): Extract<StateRecord, { type: 'book' }>[] {
  return stdout
    .split('\n')
    .filter((line) => line.includes('"type":"book"'))
    .map((line) => JSON.parse(line));
}

/** What `store` holds of each of `books`: its entries and totals, read through the book. */
async function readBooks(store: Store, books: Extract<StateRecord, { type: 'book' }>[]) {
  return await Promise.all(
    books.map(async (book) => {
      const view = await store
        .entryBook(book.name)
        .read({ entries: Object.keys(book.entries), totals: Object.keys(book.totals) });
      return { name: book.name, entries: view.entries, totals: view.totals };
    }),
  );
}

/** A webhook delivery waiting on its queue when the state is moved. */
const WAITING = { id: 'evt_waiting_move', partition: 'shop', dueAtMs: 1_900_000_000_000 };

const root = mkdtempSync(join(tmpdir(), 'esim-state-transfer-'));
const dataDir = join(root, 'data');
let redis: RunningRedis;
let stack: Stack;
let bought: BoughtEsim;

/**
 * Run one command as `node server.mjs <command> <args>` would, with `input` on stdin; its stdout and stderr.
 * `stdout` replaces the captured one (a file the shell redirected it into).
 */
async function command(
  name: StateCommand,
  env: NodeJS.ProcessEnv,
  input = '',
  args: string[] = [],
  stdout: PassThrough | NodeJS.WritableStream = new PassThrough(),
) {
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  if (stdout instanceof PassThrough) stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  const code = await runStateCommand(
    name,
    env,
    { stdin: Readable.from([input]), stdout: stdout as PassThrough, stderr },
    args,
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/**
 * A store on the test's Redis. This file moves state, it does not time outages (store-outage.test.ts does): the
 * waits for the connection and each command are generous, so a busy machine's slow first connection is waited
 * for instead of refused with `store_unavailable`.
 */
const redisStore = () =>
  createRedisStore({ url: redis.url, connectWaitMs: 10_000, commandTimeoutMs: 10_000 });

beforeAll(async () => {
  redis = await startRedisServer();
  // A sale on the embedded store, with its manage link; then the BFF stops (the data directory is free).
  stack = await startStack({ store: openSqliteStore({ dataDir }) });
  bought = await buyEsim(await openWidget(stack.server.url, 'shop'));
  await stack.server.close();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('export-state and import-state', () => {
  it('moves a sale from the embedded store to Redis, where a BFF serves it', async () => {
    // A delivery waiting on a work queue moves too.
    const embedded = openSqliteStore({ dataDir });
    await embedded.queue(QUEUE_NAMES.webhookDeliveries).add(WAITING);
    await embedded.close();
    const exported = await command('export-state', { ESIM_BFF_DATA_DIR: dataDir });
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      type: 'esim-bff-state',
      formatVersion: 1,
      from: 'embedded',
    });
    expect(exported.stdout).toContain(JSON.stringify(STORE_KEYS.checkout(bought.checkoutId)));
    // The sale's funding ledger: its book, with the month's spend among its totals.
    const books = booksOf(exported.stdout);
    expect(books.length).toBeGreaterThanOrEqual(1);
    expect(books.some((book) => Object.values(book.totals).some((total) => total > 0))).toBe(true);

    const imported = await command('import-state', { ESIM_BFF_REDIS_URL: redis.url }, exported.stdout);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(
      new RegExp(
        `imported into the redis store: ${recordsOf(lines, 'entry')} entry, ${recordsOf(lines, 'counter')} counter, ` +
          `${recordsOf(lines, 'queue-item')} queue-item`,
      ),
    );

    // A BFF on Redis, with the same secrets, serves the sale.
    const onRedis = await startBff(stack.sandbox.url, {
      sessionSecret: stack.sessionSecret,
      store: redisStore(),
    });
    try {
      const read = await call(onRedis.server.url, `/v1/partner/checkouts/${bought.checkoutId}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(read.status, read.text).toBe(200);
      expect(read.body.data).toMatchObject({ status: 'ready', esimId: bought.esimId });
      // The partner lists are not moved: the BFF indexes the imported checkouts at its start.
      expect((await onRedis.bff.indexesBuilt).checkout).toBeGreaterThanOrEqual(1);
      const listed = await call(onRedis.server.url, `/v1/partner/checkouts?esimId=${bought.esimId}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(listed.body.data.map((checkout: { id: string }) => checkout.id)).toEqual([bought.checkoutId]);
      const page = await openWidget(onRedis.server.url, 'shop');
      const view = await page.get('/v1/my-esim', { [MANAGE_TOKEN_HEADER]: bought.manageToken });
      expect(view.status, view.text).toBe(200);
      expect(view.body.data.esimId).toBe(bought.esimId);
    } finally {
      await onRedis.server.close();
    }

    const onRedisStore = redisStore();
    try {
      expect(await onRedisStore.queue(QUEUE_NAMES.webhookDeliveries).get(WAITING.id)).toEqual(WAITING);
      expect(await readBooks(onRedisStore, books)).toEqual(
        books.map((book) => ({ name: book.name, entries: book.entries, totals: book.totals })),
      );
    } finally {
      await onRedisStore.close();
    }

    // A second import keeps what is there, books whole.
    const again = await command('import-state', { ESIM_BFF_REDIS_URL: redis.url }, exported.stdout);
    expect(again.stderr).toMatch(
      /: 0 entry, 0 counter, 0 queue-item, 0 queue-pause, 0 book; kept \d+ already there/,
    );
  });

  it('moves the state back from Redis into a new data directory, values and versions alike', async () => {
    const fromRedis = await command('export-state', { ESIM_BFF_REDIS_URL: redis.url });
    expect(fromRedis.code).toBe(0);
    const back = join(root, 'back');
    const imported = await command('import-state', { ESIM_BFF_DATA_DIR: back }, fromRedis.stdout);
    expect(imported.code).toBe(0);
    // The BFF on Redis has written since (it read the order again): the copy is Redis's state, not the first one.
    const onRedis = redisStore();
    const copy = openSqliteStore({ dataDir: back });
    try {
      const key = STORE_KEYS.checkout(bought.checkoutId);
      const there = await onRedis.get(key);
      expect(there?.version).toBeGreaterThanOrEqual(1);
      expect(await copy.get(key)).toEqual(there);
      const entries = Number(copy.database.prepare('SELECT count(*) AS n FROM entries').get()?.n);
      expect(entries).toBe(
        fromRedis.stdout.split('\n').filter((line) => line.includes('"type":"entry"')).length,
      );
      expect(entries).toBeGreaterThan(3);
      expect(await copy.queue(QUEUE_NAMES.webhookDeliveries).get(WAITING.id)).toEqual(WAITING);
      // The books come back as Redis holds them.
      const books = booksOf(fromRedis.stdout);
      expect(books.length).toBeGreaterThanOrEqual(1);
      expect(await readBooks(copy, books)).toEqual(await readBooks(onRedis, books));
    } finally {
      await onRedis.close();
      await copy.close();
    }
  });

  it('writes its file for its owner alone (0600) and says it holds personal data', async () => {
    // The umask most hosts give a service: a file the shell or the command creates is readable by all unless the
    // command says otherwise.
    const umaskBefore = process.umask(0o022);
    try {
      const env = { ESIM_BFF_DATA_DIR: dataDir };
      const file = join(root, 'state.jsonl');
      const exported = await command('export-state', env, '', ['--output', file]);
      expect(exported.code).toBe(0);
      expect(exported.stdout).toBe('');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toContain(JSON.stringify(STORE_KEYS.checkout(bought.checkoutId)));
      expect(exported.stderr).toMatch(new RegExp(`exported \\d+ records from the embedded store to ${file}`));
      expect(exported.stderr).toMatch(/personal data .*e-mail addresses.*0600/s);
      // Never into a file that was there.
      await expect(command('export-state', env, '', ['--output', file])).rejects.toThrow(/exists already/);
      await expect(command('export-state', env, '', ['--outptu', file])).rejects.toThrow(
        /takes one option, --output <file>/,
      );

      // `export-state > state.jsonl`: the shell created the file with its umask; the export narrows it first.
      const redirected = join(root, 'redirected.jsonl');
      const descriptor = openSync(redirected, 'w', 0o644);
      expect(statSync(redirected).mode & 0o777).toBe(0o644);
      const intoFile = createWriteStream(redirected, { fd: descriptor, autoClose: false });
      try {
        const viaShell = await command('export-state', env, '', [], intoFile);
        expect(viaShell.stderr).toMatch(/to standard output\.\nThe export holds personal data/);
      } finally {
        await new Promise((done) => intoFile.end(done));
        closeSync(descriptor);
      }
      expect(statSync(redirected).mode & 0o777).toBe(0o600);
      expect(readFileSync(redirected, 'utf8')).toContain('"type":"esim-bff-state"');

      const help = await command('export-state', env, '', ['--help']);
      expect(help.stdout).toMatch(/--output <file>.*0600.*personal data/s);
    } finally {
      process.umask(umaskBefore);
    }
  });

  it('refuses input that is not an export, naming the line', async () => {
    const target = { ESIM_BFF_DATA_DIR: join(root, 'refused') };
    await expect(command('import-state', target, '{"type":"entry"}\n')).rejects.toThrow(
      /line 1 is not the header of a state export/,
    );
    const header =
      '{"type":"esim-bff-state","formatVersion":1,"exportedAt":"2026-11-26T00:00:00Z","from":"embedded"}';
    await expect(command('import-state', target, `${header}\n{"type":"entry","key":"k"}\n`)).rejects.toThrow(
      /line 2 of the state is not a record/,
    );
    await expect(command('import-state', target, `${header}\nnot json\n`)).rejects.toThrow(
      /line 2 of the state is not JSON/,
    );
  });
});

/** How many records of `type` an export's lines hold. */
function recordsOf(lines: string[], type: string): number {
  return lines.filter((line) => line.includes(`"type":"${type}"`)).length;
}
