/**
 * The embedded store's write batch: the writes of one turn of the event loop are one transaction — one commit's
 * pages appended to the WAL, not one per statement — seen by another connection only once the turn ends, while a
 * durable write still resolves only after its commit and a sync; a step of several statements that fails inside
 * the turn's transaction undoes its own writes and no other.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite-engine';
import { DATABASE_FILE, openSqliteStore, type SqliteStore } from './sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'esim-write-batch-'));
const open: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((opened) => opened.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
function openStore(): SqliteStore {
  folders += 1;
  const store = openSqliteStore({ dataDir: join(root, `data-${folders}`), sweepIntervalMs: 3_600_000 });
  open.push(store);
  return store;
}

const walBytes = (store: SqliteStore) => statSync(join(store.dataDir, `${DATABASE_FILE}-wal`)).size;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the embedded store’s writes of one turn', () => {
  it('commit once: a turn of 30 counters and index steps appends a few pages to the WAL, not a commit each', async () => {
    const store = openStore();
    // The tables' first pages exist and the WAL holds them: what follows appends only the turn's own frames.
    await store.insert('first', 'value', 60_000);
    await store.increment('counter:first', 1, 60_000);
    await store.sortedIndex('checkouts:shop').add('chk_first', 1, 60_000);
    const before = walBytes(store);
    const steps: Promise<unknown>[] = [];
    for (let at = 0; at < 20; at += 1) steps.push(store.increment(`counter:${at}`, 1, 60_000));
    for (let at = 0; at < 10; at += 1)
      steps.push(store.sortedIndex('checkouts:shop').add(`chk_${at}`, at, 60_000));
    steps.push(store.insert('checkout:chk_1', 'x'.repeat(200), 60_000));
    await Promise.all(steps);
    // A frame is a page and its 24-byte header. One commit per statement would append at least 31 frames.
    const frames = (walBytes(store) - before) / (4_096 + 24);
    expect(frames).toBeGreaterThan(0);
    expect(frames).toBeLessThanOrEqual(8);
  });

  it('are seen by another connection once the turn ends, and a durable one is answered after that', async () => {
    const store = openStore();
    await store.insert('first', 'value', 60_000);
    const reader = openSqlite(join(store.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      const count = () => Number(reader.prepare('SELECT count(*) AS n FROM counters').get()?.n);
      const written = store.insert('checkout:chk_1', 'value', 60_000);
      void store.increment('counter:a', 1, 60_000);
      // Still this turn: nothing committed yet.
      expect(count()).toBe(0);
      await written;
      expect(count()).toBe(1);
      expect(reader.prepare('SELECT count(*) AS n FROM entries').get()?.n).toBe(2);
    } finally {
      reader.close();
    }
  });

  it('undo only the writes of a step of several statements that fails, and keep the others of the turn', async () => {
    const store = openStore();
    const db = store.database;
    db.exec('CREATE TABLE IF NOT EXISTS trial (id TEXT PRIMARY KEY)');
    const kept = store.increment('counter:kept', 1, 60_000);
    expect(db.inTransaction).toBe(true);
    expect(() =>
      db.transaction(() => {
        db.prepare('INSERT INTO trial (id) VALUES (?)').run('undone');
        throw new Error('a check after the write failed');
      }),
    ).toThrow('a check after the write failed');
    expect(db.inTransaction).toBe(true);
    await kept;
    await nextTurn();
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM trial').get()?.n).toBe(0);
    expect((await store.increment('counter:kept', 1, 60_000)).count).toBe(2);
  });
});
