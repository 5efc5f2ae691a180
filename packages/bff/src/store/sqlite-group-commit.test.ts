/**
 * The embedded store's group commit: a write's promise resolves only after an fsync of the WAL that began after it, the
 * writes of one turn share one sync, a write arriving while a sync runs waits for the next, and a failed sync
 * rejects every write of its batch as the store being unavailable. The fsync is injected and held; the database
 * is real.
 */
import { fstatSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FsyncFunction } from './sqlite-group-commit';
import { DATABASE_FILE, openSqliteStore, type SqliteStore } from './sqlite-store';
import { StoreUnavailableError } from './store';

const root = mkdtempSync(join(tmpdir(), 'esim-group-commit-'));
const open: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((opened) => opened.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An fsync that records each call (which file) and answers only when the test releases it. */
function heldFsync() {
  const calls: { inode: number; release: () => void; fail: (error: Error) => void }[] = [];
  const fsync: FsyncFunction = (fd) =>
    new Promise<void>((release, fail) => {
      // Which file: its inode, read while the descriptor is open.
      calls.push({ inode: fstatSync(fd).ino, release, fail });
    });
  return { fsync, calls };
}

/** Whether `promise` has settled within a few milliseconds: for a write expected to be still held. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let settled: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => {
      settled = 'resolved';
    },
    () => {
      settled = 'rejected';
    },
  );
  // A sync's own file work (closing the directory) runs on the thread pool: give it a few milliseconds.
  for (let turn = 0; turn < 20 && settled === 'pending'; turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return settled;
}

/**
 * How `promise` settles, waiting as long as a loaded machine may need (at most 10 s): for a write expected to be
 * answered, whose last step (closing the directory) runs on the thread pool. One held for a sync never settles.
 */
async function settles(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), 10_000);
  });
  const settled = promise.then(
    () => 'resolved' as const,
    () => 'rejected' as const,
  );
  try {
    return await Promise.race([settled, pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** Let the event loop run until `count` fsync calls are waiting (bounded). */
async function untilCalls(calls: unknown[], count: number): Promise<void> {
  for (let turn = 0; turn < 200 && calls.length < count; turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(calls.length).toBe(count);
}

function storeWith(fsync: FsyncFunction): SqliteStore {
  const store = openSqliteStore({ dataDir: mkdtempSync(join(root, 'data-')), fsync, logger: silentLogger });
  open.push(store);
  return store;
}

const silentLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
  lineWriter: () => () => {},
};

describe('the embedded store’s group commit', () => {
  it('resolves a write only after a sync of the WAL (and once its directory), one sync for the writes of a turn', async () => {
    const { fsync, calls } = heldFsync();
    const store = storeWith(fsync);
    const first = store.insert('a', '1', 60_000);
    const second = store.insert('b', '2', 60_000);
    await untilCalls(calls, 1);
    // Committed already (a read sees it), but not answered: its sync has not reached the disk.
    expect(await store.get('a')).toMatchObject({ value: '1' });
    expect(await state(first)).toBe('pending');
    expect(await state(second)).toBe('pending');
    calls[0]?.release(); // the WAL
    await untilCalls(calls, 2);
    expect(await state(first)).toBe('pending');
    calls[1]?.release(); // its directory, once
    expect(await settles(first)).toBe('resolved');
    expect(await settles(second)).toBe('resolved');
    expect(await first).toBe(true);
    // The WAL, then its directory: one sync for both writes.
    const database = join(store.dataDir, DATABASE_FILE);
    expect(calls.map((call) => call.inode)).toEqual([
      statSync(`${database}-wal`).ino,
      statSync(store.dataDir).ino,
    ]);
    // Reads and counters wait for no sync.
    expect(await store.increment('counter', 1, 60_000)).toMatchObject({ count: 1 });
    expect(await settles(store.get('b'))).toBe('resolved');
    expect(calls.length).toBe(2);
  });

  it('answers an index add or remove without a sync of its own: the next durable write’s sync covers it', async () => {
    const { fsync, calls } = heldFsync();
    const store = storeWith(fsync);
    const index = store.sortedIndex('checkouts:w1');
    // Added, then its checkout written: only the write waits for a sync, and that sync covers both.
    expect(await settles(index.add('chk_1', 1_000, 60_000))).toBe('resolved');
    const write = store.insert('checkout:chk_1', '{}', 60_000);
    await untilCalls(calls, 1);
    expect(await state(write)).toBe('pending');
    calls[0]?.release(); // the WAL, with the index row before the checkout
    await untilCalls(calls, 2);
    calls[1]?.release(); // its directory, once
    expect(await write).toBe(true);
    expect(await settles(index.remove('chk_1'))).toBe('resolved');
    expect(calls.length).toBe(2);
    expect(await index.range({ fromScore: -Infinity, toScore: Infinity, after: null, limit: 10 })).toEqual(
      [],
    );
  });

  it('makes a write that arrives during a sync wait for the next one', async () => {
    const { fsync, calls } = heldFsync();
    const store = storeWith(fsync);
    const early = store.insert('a', '1', 60_000);
    await untilCalls(calls, 1);
    // The first batch's sync is running: a write now must not ride on it.
    const late = store.queue('q').add({ id: 'x', partition: 'p', dueAtMs: 0 });
    // Release the first batch's syncs as they come (the WAL, its directory).
    calls[0]?.release();
    await untilCalls(calls, 2);
    calls[1]?.release();
    expect(await settles(early)).toBe('resolved');
    expect(await state(late)).toBe('pending');
    // The next batch: the WAL.
    await untilCalls(calls, 3);
    calls[2]?.release();
    expect(await settles(late)).toBe('resolved');
  });

  it('rejects every write of a batch whose sync failed, as the store being unavailable, and logs it', async () => {
    const { fsync, calls } = heldFsync();
    const logged: unknown[] = [];
    const logger = {
      ...silentLogger,
      error: (message: string, fields?: unknown) => logged.push({ message, fields }),
    };
    const store = openSqliteStore({ dataDir: mkdtempSync(join(root, 'data-')), fsync, logger });
    open.push(store);
    const first = store.insert('a', '1', 60_000);
    const second = store.compareAndSet('a', 1, '2', 60_000);
    const outcomes = Promise.allSettled([first, second]);
    await untilCalls(calls, 1);
    calls[0]?.fail(new Error('EIO: i/o error, fsync'));
    const [one, two] = await outcomes;
    for (const outcome of [one, two]) {
      expect(outcome?.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
      expect(String((outcome as PromiseRejectedResult).reason.message)).toMatch(/sync .*EIO/);
    }
    expect(logged).toEqual([
      expect.objectContaining({
        fields: expect.objectContaining({ writes: 2, error: 'EIO: i/o error, fsync' }),
      }),
    ]);
    // The next write gets a sync of its own, and succeeds when that sync does.
    const next = store.insert('b', '1', 60_000);
    await untilCalls(calls, 2);
    calls[1]?.release();
    await untilCalls(calls, 3);
    calls[2]?.release();
    expect(await next).toBe(true);
  });
});
