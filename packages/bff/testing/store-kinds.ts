/**
 * @module
 * Test support: every kind of store a contract test runs against — memory, the embedded store (SQLite, in a
 * temporary data directory), a real `redis-server` and a Redis Cluster — started before a file's tests and closed
 * after them, so that each contract file names what it checks and not how the stores are made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store';
import { createRedisStore } from '../src/store/redis-store';
import { openSqliteStore } from '../src/store/sqlite-store';
import type { Store } from '../src/store/store';
import {
  type RunningRedis,
  type RunningRedisCluster,
  startRedisCluster,
  startRedisServer,
} from './redis-server';

/** One kind of store. */
export interface StoreKind {
  /** Whether the store reads the clock it is opened with (Redis expires keys on its own clock). */
  readsClock: boolean;
  /**
   * A store on fresh state, reading `now` where it can; `twin()` is a second handle on the same state, as another
   * instance has it (the same handle where one process holds the state).
   */
  open(now?: () => number): { store: Store; twin(): Store };
}

/** The stores of one test file. */
export interface StoresUnderTest {
  /** Each kind by name, for `describe.each`. */
  kinds: Array<[string, StoreKind]>;
  /** The redis-server and the cluster the Redis kinds use (once the file's tests have started). */
  redis(): RunningRedis;
  cluster(): RunningRedisCluster;
  /** `store`, closed after the file's tests. */
  kept<T extends Store>(store: T): T;
}

/**
 * Every kind of store for the tests of the file that calls it (at its top level: it adds the file's `beforeAll`
 * and `afterAll`); `name` names its temporary folder and its key prefixes.
 */
export function storesUnderTest(name: string): StoresUnderTest {
  let redis: RunningRedis | undefined;
  let cluster: RunningRedisCluster | undefined;
  const opened: Store[] = [];
  const dataDirs = mkdtempSync(join(tmpdir(), `esim-${name}-`));
  beforeAll(async () => {
    [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await Promise.all([redis?.stop(), cluster?.stop()]);
    rmSync(dataDirs, { recursive: true, force: true });
  });
  const kept = <T extends Store>(store: T): T => {
    opened.push(store);
    return store;
  };
  const running = <T>(server: T | undefined): T => {
    if (server === undefined) throw new Error('the Redis servers start before the first test');
    return server;
  };
  /** One process's store: its twin is itself. */
  const single = (store: Store) => ({ store: kept(store), twin: () => store });
  /** Redis: a new connection (a keyPrefix of its own) per store, and one more per twin. */
  const connected = (open: (keyPrefix: string) => Store) => () => {
    const keyPrefix = `${name}-${Math.random()}:`;
    return { store: kept(open(keyPrefix)), twin: () => kept(open(keyPrefix)) };
  };
  return {
    kinds: [
      ['memory', { readsClock: true, open: (now) => single(createMemoryStore(now ? { now } : {})) }],
      [
        'embedded (SQLite)',
        {
          readsClock: true,
          open: (now) =>
            single(
              openSqliteStore({ dataDir: mkdtempSync(join(dataDirs, 'data-')), ...(now ? { now } : {}) }),
            ),
        },
      ],
      [
        'redis',
        {
          readsClock: false,
          // Side by side, a busy machine may take longer than the default 250 ms to connect them all.
          open: connected((keyPrefix) =>
            createRedisStore({ url: running(redis).url, keyPrefix, connectWaitMs: 5_000 }),
          ),
        },
      ],
      [
        'redis cluster',
        {
          readsClock: false,
          open: connected((keyPrefix) =>
            createRedisStore({ target: running(cluster).target, keyPrefix, connectWaitMs: 5_000 }),
          ),
        },
      ],
    ],
    redis: () => running(redis),
    cluster: () => running(cluster),
    kept,
  };
}
