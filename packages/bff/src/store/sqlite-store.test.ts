/**
 * What the embedded store adds to the store and work-queue contracts (`store.test.ts`, `work-queue.test.ts` run
 * those on it): claims from a large backlog through indexes, state kept across a reopen of the data directory, one
 * process per data directory kept to the BFF's user, its schema version, sweeps in bounded batches, and what
 * it deletes leaving its files.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERASED_ADDRESS, eraseFromDisk } from '../../testing/erased-from-disk';
import { createLogger } from '../logger';
import { DataDirError } from './sqlite-data-dir';
import { openSqlite } from './sqlite-engine';
import { LOCK_FILE } from './sqlite-instance-lock';
import { migrate, SCHEMA_VERSION, schemaVersionOf } from './sqlite-schema';
import { DATABASE_FILE, openSqliteStore, type SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'esim-sqlite-store-'));
// The umask most hosts give a service: files are readable by all unless the store says otherwise.
let umaskBefore: number;
beforeAll(() => {
  umaskBefore = process.umask(0o022);
});
afterAll(() => {
  process.umask(umaskBefore);
});
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

describe('the embedded store’s work queue (its contract runs in work-queue.test.ts)', () => {
  it('claims a bounded batch from a large backlog through indexes, without reading it whole', async () => {
    const s = store();
    const queue = s.queue('backlog');
    s.database.transaction(() => {
      const insert = s.database.prepare(
        'INSERT INTO queue_items (queue, id, partition, due_at, added_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (let index = 0; index < 20_000; index += 1)
        insert.run('backlog', `id-${index}`, 'dead', index, index);
      s.database
        .prepare(
          `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until, claimable_at)
           VALUES ('backlog', 'dead', 0, 20000, 0, 0)`,
        )
        .run();
    });
    await queue.pausePartition('dead', Number.MAX_SAFE_INTEGER);
    await queue.add({ id: 'alive', partition: 'alive', dueAtMs: 30_000 });
    const plans = [
      [
        'SELECT partition FROM queue_partitions WHERE queue = ? AND claimable_at <= ? ORDER BY claimable_at LIMIT ?',
        ['backlog', 40_000, 10],
      ],
      [
        'SELECT id FROM queue_items WHERE queue = ? AND partition = ? AND due_at <= ? ORDER BY due_at LIMIT ?',
        ['backlog', 'alive', 40_000, 10],
      ],
      ['SELECT added_at FROM queue_items WHERE queue = ? ORDER BY added_at LIMIT 1', ['backlog']],
    ] as const;
    for (const [sql, params] of plans) {
      const plan = s.database
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => String(row.detail))
        .join('\n');
      expect(plan, sql).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY/);
      expect(plan, sql).not.toMatch(/^SCAN queue_\w+$/m);
      expect(plan, sql).not.toMatch(/USE TEMP B-TREE/);
    }
    const started = performance.now();
    const claimed = await queue.claim(40_000, { limit: 10, perPartition: 10, leaseMs: 30_000 });
    const ms = performance.now() - started;
    expect(claimed.map((item) => item.id)).toEqual(['alive']);
    // The query plans above are what this test holds; the time is a coarse bound, wide enough for a busy machine.
    expect(ms).toBeLessThan(250);
    expect(await queue.stats()).toEqual({
      size: 20_001,
      nextClaimableAtMs: 70_000,
      oldestAddedAtMs: 0,
    });
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

  it('creates a data directory only its own user can enter (checkouts and e-mail addresses live there)', () => {
    const dataDir = join(newDataDir(), 'new');
    store(dataDir);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('keeps every file it writes to its own user (0600), whatever the umask', async () => {
    const after = await eraseFromDisk((now) => store(join(newDataDir(), 'new'), now), 20);
    expect(after.folderMode).toBe('0700');
    expect(Object.keys(after.modes).sort()).toEqual([
      LOCK_FILE,
      DATABASE_FILE,
      `${DATABASE_FILE}-shm`,
      `${DATABASE_FILE}-wal`,
    ]);
    for (const [name, mode] of Object.entries(after.modes)) expect(mode, name).toBe('0600');
  });

  it.each(['0777', '0750', '0705'])(
    'refuses a data directory others may enter (mode %s), naming the chmod that fixes it',
    (mode) => {
      const dataDir = join(newDataDir(), 'shared folder');
      mkdirSync(dataDir);
      chmodSync(dataDir, Number.parseInt(mode, 8));
      expect(() => openSqliteStore({ dataDir })).toThrow(DataDirError);
      expect(() => openSqliteStore({ dataDir })).toThrow(
        `is open to other users of this host (mode ${mode})`,
      );
      expect(() => openSqliteStore({ dataDir })).toThrow(`chmod 700 '${dataDir}'`);
      // Nothing was written into it.
      expect(() => statSync(join(dataDir, DATABASE_FILE))).toThrow(/ENOENT/);
    },
  );

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
    // A sorted index's members expire on their own, and are swept too (reads skip them meanwhile).
    const index = s.sortedIndex('swept');
    for (let at = 0; at < 35; at += 1) await index.add(`short:${at}`, at, 100);
    await index.add('long', 100, 60_000);
    time += 1_000;
    const rows = (table: string) => Number(s.database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
    const count = () => rows('entries');
    const deadline = Date.now() + 5_000;
    while ((count() > 1 || rows('index_entries') > 1) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count()).toBe(1);
    expect(rows('counters')).toBe(0);
    expect(rows('index_entries')).toBe(1);
    expect(await s.get('long')).not.toBeNull();
  });
});

describe('what the embedded store deletes', () => {
  it('leaves its files: no byte of a swept, rewritten or deleted row in the database or its WAL, and the file shrinks', async () => {
    const after = await eraseFromDisk((now) => store(newDataDir(), now));
    expect(after.addressFoundIn).toEqual({});
    // 400 rows of some 3 KB, expired and swept: the file gives their pages back.
    expect(after.bytesBefore).toBeGreaterThan(1_000_000);
    expect(after.bytesAfter).toBeLessThan(after.bytesBefore / 10);
    expect(after.keptReadsBack).toBe(true);
    expect({ autoVacuum: after.autoVacuum, secureDelete: after.secureDelete }).toEqual({
      autoVacuum: 2, // incremental
      secureDelete: 2, // fast
    });
  });

  it('rebuilds a database written before incremental vacuum once, dropping what an older release left', async () => {
    const dataDir = newDataDir();
    const file = join(dataDir, DATABASE_FILE);
    // A database as last month's release left it: no auto-vacuum, a swept row still readable in the file.
    const old = openSqlite(file);
    old.exec('PRAGMA journal_mode = WAL');
    migrate(old);
    old
      .prepare('INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, 1, ?)')
      .run('checkout:old', JSON.stringify({ email: ERASED_ADDRESS, plan: 'x'.repeat(3_000) }), 1);
    old
      .prepare('INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, 1, ?)')
      .run('checkout:live', 'still here', Number.MAX_SAFE_INTEGER);
    old.exec("DELETE FROM entries WHERE key = 'checkout:old'");
    old.close();
    chmodSync(file, 0o644);
    expect(readFileSync(file).includes(ERASED_ADDRESS)).toBe(true);

    const lines: string[] = [];
    const opened = openSqliteStore({
      dataDir,
      logger: createLogger({ level: 'info', write: (line) => lines.push(line) }),
    });
    open.push(opened);
    expect(Number(opened.database.prepare('PRAGMA auto_vacuum').get()?.auto_vacuum)).toBe(2);
    expect(readFileSync(file).includes(ERASED_ADDRESS)).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await opened.get('checkout:live')).toEqual({ value: 'still here', version: 1 });
    expect(lines.join('\n')).toMatch(/rebuilt the database once/);
    await opened.close();
    // Once: the next start finds it rebuilt.
    lines.length = 0;
    const again = openSqliteStore({
      dataDir,
      logger: createLogger({ level: 'info', write: (line) => lines.push(line) }),
    });
    open.push(again);
    expect(lines).toEqual([]);
  });
});
