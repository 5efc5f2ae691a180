/**
 * A failover under the Redis store, with real `redis-server` processes: a primary, its replica and a Sentinel.
 * Through the Sentinels, the store follows the primary they name: while it moves, operations are refused as
 * `StoreUnavailableError` (503 to a caller, never 500), then served by the new primary with what was written
 * before. Through one address that a proxy or a DNS name moves to the new primary, the demoted primary's
 * `READONLY` makes the store connect again instead of failing for good.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  freePort,
  type RunningRedis,
  startRedisSentinel,
  startRedisServer,
} from '../../testing/redis-server';
import { createRedisStore } from './redis-store';
import { type Store, StoreUnavailableError } from './store';

const MASTER = 'esim';
const TTL_MS = 600_000;

let primary: RunningRedis;
let replica: RunningRedis;
// A pair of its own for each test: a failover leaves their roles swapped.
beforeEach(async () => {
  primary = await startRedisServer();
  replica = await startRedisServer({ replicaOf: primary.port });
  await until('the replica is in sync', async () =>
    (await replicationOf(replica.port)).includes('master_link_status:up'),
  );
});
afterEach(async () => {
  await replica?.stop();
  await primary?.stop();
});

/** Polls `check` until it is true, or fails naming `what` after `timeoutMs` of real time (a server's own pace). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `INFO replication` says of the server on `port`. */
async function replicationOf(port: number): Promise<string> {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  try {
    return await redis.info('replication');
  } finally {
    redis.disconnect();
  }
}

/**
 * Writes one entry a little after another until one lands on the server on `port` (the new primary), through
 * `store`, whose keys start with `keyPrefix`; every refusal on the way must be a 503's. Answers how long it took.
 */
async function writeUntilOn(store: Store, keyPrefix: string, port: number): Promise<number> {
  const started = Date.now();
  const onTarget = new Redis(port, '127.0.0.1');
  try {
    for (let attempt = 0; ; attempt += 1) {
      const name = `written-${attempt}`;
      try {
        expect(await store.insert(name, 'after', TTL_MS)).toBe(true);
        if ((await onTarget.exists(`${keyPrefix}${name}`)) === 1) return Date.now() - started;
      } catch (error) {
        expect(error).toBeInstanceOf(StoreUnavailableError);
      }
      if (Date.now() - started > 20_000) throw new Error(`no write reached :${port} within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    onTarget.disconnect();
  }
}

/** An operator's failover by hand: `to` promoted, `from` made its replica. */
async function demote(from: RunningRedis, to: RunningRedis): Promise<void> {
  const promoted = new Redis(to.port, '127.0.0.1');
  const demoted = new Redis(from.port, '127.0.0.1');
  try {
    await promoted.replicaof('NO', 'ONE');
    await demoted.replicaof('127.0.0.1', to.port);
  } finally {
    promoted.disconnect();
    demoted.disconnect();
  }
}

describe('the Redis store through Sentinel', () => {
  it('follows the primary the Sentinels name through a failover, refusing as unavailable meanwhile', async () => {
    const sentinel = await startRedisSentinel(primary.port, MASTER);
    const keyPrefix = `failover-${randomBytes(4).toString('hex')}:`;
    const store = createRedisStore({
      target: {
        kind: 'sentinel',
        sentinels: [{ host: '127.0.0.1', port: sentinel.port }],
        masterName: MASTER,
        db: 0,
        tls: false,
      },
      keyPrefix,
    });
    const asSentinel = new Redis(sentinel.port, '127.0.0.1');
    try {
      expect(await store.insert('before', 'written before the failover', TTL_MS)).toBe(true);
      // The replica holds it (a failover loses what it has not received: the durability settings say how much).
      const onPrimary = new Redis(primary.port, '127.0.0.1');
      expect(await onPrimary.wait(1, 5_000)).toBe(1);
      onPrimary.disconnect();
      await until('the Sentinel knows the replica', async () => {
        const replicas = (await asSentinel.call('SENTINEL', 'REPLICAS', MASTER)) as unknown[];
        return replicas.length === 1;
      });

      // Refused (NOGOODSLAVE) until the Sentinel has heard from the replica itself: asked again until it starts.
      await until(
        'the Sentinel starts a failover',
        async () => (await asSentinel.call('SENTINEL', 'FAILOVER', MASTER)) === 'OK',
      );
      // Within the goal of a failover's 503 window, the store writes to the promoted replica.
      expect(await writeUntilOn(store, keyPrefix, replica.port)).toBeLessThan(10_000);
      expect((await store.get('before'))?.value).toBe('written before the failover');
    } finally {
      asSentinel.disconnect();
      await store.close();
      await sentinel.stop();
    }
  });
});

/** A TCP proxy on a loopback port that sends new connections to `target()`: an address an operator moves. */
async function startMovableProxy(target: () => number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(target(), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the Redis store through one address that moves to the new primary', () => {
  it('connects again when the primary it holds a connection to is demoted (READONLY), and is served', async () => {
    let current = primary.port;
    const proxy = await startMovableProxy(() => current);
    const keyPrefix = `moved-${randomBytes(4).toString('hex')}:`;
    const store = createRedisStore({ url: proxy.url, keyPrefix });
    try {
      expect(await store.insert('before', 'written before', TTL_MS)).toBe(true);
      const onPrimary = new Redis(primary.port, '127.0.0.1');
      expect(await onPrimary.wait(1, 5_000)).toBe(1);
      onPrimary.disconnect();

      // The operator's failover: the replica promoted, the old primary its replica, the address moved.
      await demote(primary, replica);
      current = replica.port;
      expect(await writeUntilOn(store, keyPrefix, replica.port)).toBeLessThan(10_000);
      expect((await store.get('before'))?.value).toBe('written before');
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});
