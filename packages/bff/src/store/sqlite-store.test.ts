/**
 * What the embedded store adds to the store contract (`store.test.ts` runs that on it): its work queues, state
 * kept across a reopen of the data directory, one process per data directory, its schema version, and sweeps in
 * bounded batches.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite-engine';
import { migrate, SCHEMA_VERSION, schemaVersionOf } from './sqlite-schema';
import { DATABASE_FILE, DataDirError, openSqliteStore, type SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'esim-sqlite-store-'));
const open: SqliteStore[] = [];
const newDataDir = () => mkdtempSync(join(root, 'data-'));

function store(dataDir = newDataDir(), now?: () => number): SqliteStore {
  const opened = openSqliteStore({ dataDir, now });
  open.push(opened);
  return opened;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((opened) => opened.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lease = { leaseMs: 30_000 };

describe('the embedded store’s work queue', () => {
  it('adds an id once, and reads it back', async () => {
    const queue = store().queue('deliveries');
    expect(await queue.add({ id: 'a', partition: 'shop', dueAtMs: 100 })).toBe(true);
    expect(await queue.add({ id: 'a', partition: 'other', dueAtMs: 5 })).toBe(false);
    expect(await queue.get('a')).toEqual({ id: 'a', partition: 'shop', dueAtMs: 100 });
    expect(await queue.get('missing')).toBeNull();
    expect(await queue.stats()).toEqual({ size: 1, earliestDueAtMs: 100 });
  });

  it('claims only due items, partitions by their earliest item, at most perPartition each, limit in all', async () => {
    const queue = store().queue('deliveries');
    for (let index = 0; index < 5; index += 1) {
      await queue.add({ id: `late-${index}`, partition: 'late', dueAtMs: 20 + index });
      await queue.add({ id: `early-${index}`, partition: 'early', dueAtMs: 10 + index });
    }
    await queue.add({ id: 'future', partition: 'future', dueAtMs: 1_000 });
    const claimed = await queue.claim(100, { limit: 5, perPartition: 3, ...lease });
    expect(claimed.map((item) => item.id)).toEqual(['early-0', 'early-1', 'early-2', 'late-0', 'late-1']);
    expect(claimed.every((item) => item.dueAtMs === 100 + lease.leaseMs)).toBe(true);
    // Leased: not claimed again until the lease ends, and back by itself after it.
    const next = await queue.claim(100, { limit: 10, perPartition: 10, ...lease });
    expect(next.map((item) => item.id)).toEqual(['early-3', 'early-4', 'late-2', 'late-3', 'late-4']);
    expect(await queue.claim(100, { limit: 10, perPartition: 10, ...lease })).toEqual([]);
    const afterLease = await queue.claim(100 + lease.leaseMs, { limit: 100, perPartition: 100, ...lease });
    expect(afterLease).toHaveLength(11);
  });

  it('reschedules, removes, and keeps its stats with every change', async () => {
    const queue = store().queue('watch');
    await queue.add({ id: 'x', partition: 'p', dueAtMs: 10 });
    await queue.add({ id: 'y', partition: 'p', dueAtMs: 20 });
    await queue.reschedule('x', 50);
    expect(await queue.stats()).toEqual({ size: 2, earliestDueAtMs: 20 });
    expect((await queue.claim(30, { limit: 10, perPartition: 10, ...lease })).map((item) => item.id)).toEqual(
      ['y'],
    );
    await queue.remove('y');
    await queue.remove('y');
    await queue.reschedule('missing', 1);
    expect(await queue.stats()).toEqual({ size: 1, earliestDueAtMs: 50 });
    await queue.remove('x');
    expect(await queue.stats()).toEqual({ size: 0, earliestDueAtMs: null });
  });

  it('skips a paused partition until its pause ends, while the others go on', async () => {
    const queue = store().queue('deliveries');
    await queue.add({ id: 'down-1', partition: 'down', dueAtMs: 1 });
    await queue.add({ id: 'up-1', partition: 'up', dueAtMs: 2 });
    await queue.pausePartition('down', 500);
    await queue.pausePartition('later', 500);
    await queue.add({ id: 'later-1', partition: 'later', dueAtMs: 3 });
    expect(
      (await queue.claim(100, { limit: 10, perPartition: 10, ...lease })).map((item) => item.id),
    ).toEqual(['up-1']);
    expect(
      (await queue.claim(500, { limit: 10, perPartition: 10, ...lease })).map((item) => item.id),
    ).toEqual(['down-1', 'later-1']);
  });

  it('keeps each queue to itself', async () => {
    const s = store();
    await s.queue('one').add({ id: 'same', partition: 'p', dueAtMs: 1 });
    expect(await s.queue('two').get('same')).toBeNull();
    expect(await s.queue('two').add({ id: 'same', partition: 'p', dueAtMs: 1 })).toBe(true);
    expect((await s.queue('one').stats()).size).toBe(1);
  });

  it('claims a bounded batch from a large backlog without reading it whole', async () => {
    const s = store();
    const queue = s.queue('backlog');
    s.database.transaction(() => {
      const insert = s.database.prepare(
        'INSERT INTO queue_items (queue, id, partition, due_at) VALUES (?, ?, ?, ?)',
      );
      for (let index = 0; index < 20_000; index += 1) insert.run('backlog', `id-${index}`, 'dead', index);
      s.database
        .prepare(
          `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until)
           VALUES ('backlog', 'dead', 0, 20000, 0)`,
        )
        .run();
    });
    await queue.pausePartition('dead', Number.MAX_SAFE_INTEGER);
    await queue.add({ id: 'alive', partition: 'alive', dueAtMs: 30_000 });
    // The query plan walks indexes only (no full scan of the items).
    const plan = s.database
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id, due_at FROM queue_items
         WHERE queue = ? AND partition = ? AND due_at <= ? ORDER BY due_at LIMIT ?`,
      )
      .all('backlog', 'alive', 40_000, 10)
      .map((row) => String(row.detail));
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY/);
    expect(plan.join('\n')).not.toMatch(/^SCAN queue_items$/m);
    const started = performance.now();
    const claimed = await queue.claim(40_000, { limit: 10, perPartition: 10, ...lease });
    const ms = performance.now() - started;
    expect(claimed.map((item) => item.id)).toEqual(['alive']);
    expect(ms).toBeLessThan(50);
    expect(await queue.stats()).toEqual({ size: 20_001, earliestDueAtMs: 0 });
  });
});

describe('the embedded store’s data directory', () => {
  it('keeps values, versions, counters and queue items across a reopen', async () => {
    const dataDir = newDataDir();
    const first = store(dataDir);
    await first.insert('checkout:1', 'ready', 60_000);
    await first.compareAndSet('checkout:1', 1, 'ready, with a manage link', 60_000);
    await first.increment('counter:ip', 3, 60_000);
    await first.queue('watch').add({ id: 'checkout:1', partition: 'shop', dueAtMs: 42 });
    await first.close();

    const second = store(dataDir);
    expect(await second.get('checkout:1')).toEqual({ value: 'ready, with a manage link', version: 2 });
    expect((await second.increment('counter:ip', 1, 60_000)).count).toBe(4);
    expect(await second.queue('watch').get('checkout:1')).toEqual({
      id: 'checkout:1',
      partition: 'shop',
      dueAtMs: 42,
    });
  });

  it('refuses a second store on a data directory in use, with a message that says what to do', async () => {
    const dataDir = newDataDir();
    const first = store(dataDir);
    expect(() => openSqliteStore({ dataDir })).toThrow(DataDirError);
    expect(() => openSqliteStore({ dataDir })).toThrow(/in use by another BFF process.*ESIM_BFF_REDIS_URL/s);
    await first.close();
    expect(await store(dataDir).ping()).toBe(true);
  });

  it('refuses a data directory it cannot create, naming ESIM_BFF_DATA_DIR', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a folder');
    expect(() => openSqliteStore({ dataDir: join(file, 'data') })).toThrow(
      /cannot create the data directory .*ESIM_BFF_DATA_DIR/,
    );
  });

  it('refuses a damaged database file with a clear message', () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, DATABASE_FILE), 'this is not a database, it is a text file '.repeat(200));
    expect(() => openSqliteStore({ dataDir })).toThrow(/cannot open the embedded store .*not damaged/);
  });

  it('writes its schema version, runs a later migration on open, and refuses a newer database', async () => {
    const dataDir = newDataDir();
    await store(dataDir).close();
    const db = openSqlite(join(dataDir, DATABASE_FILE));
    try {
      expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
      // The next release's migration, on this release's data.
      const next = [
        ...Array.from({ length: SCHEMA_VERSION }, () => ''),
        'ALTER TABLE entries ADD COLUMN note TEXT',
      ];
      migrate(db, next);
      expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION + 1);
    } finally {
      db.close();
    }
    expect(() => openSqliteStore({ dataDir })).toThrow(/written by a newer release/);
  });

  it('sweeps expired rows in bounded batches', async () => {
    let time = 1_000;
    const dataDir = newDataDir();
    const s = openSqliteStore({ dataDir, now: () => time, sweepIntervalMs: 20, sweepBatch: 10 });
    open.push(s);
    for (let index = 0; index < 35; index += 1) await s.insert(`short:${index}`, 'x', 100);
    await s.insert('long', 'x', 60_000);
    await s.increment('counter:short', 1, 100);
    time += 1_000;
    const count = () => Number(s.database.prepare('SELECT count(*) AS n FROM entries').get()?.n);
    const deadline = Date.now() + 5_000;
    while (count() > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count()).toBe(1);
    expect(Number(s.database.prepare('SELECT count(*) AS n FROM counters').get()?.n)).toBe(0);
    expect(await s.get('long')).not.toBeNull();
  });
});
