/**
 * The Redis store's scripts on a cluster's terms, and the work queue across an upgrade. Watching a real
 * `redis-server` with `MONITOR`, every key a script of the store touches (entries, counters, sorted indexes, work
 * queues) is one the script was given in `KEYS`: a cluster routes a script by its declared keys, and a stricter
 * server (a cluster proxy, a Redis-compatible store) refuses the others. A work queue written by the release
 * before (`record-fixtures/redis-work-queue.layout-1.jsonl`, the keys its scripts wrote) is claimed, paused, read
 * and changed by this one, on one server and on a cluster.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningRedis,
  type RunningRedisCluster,
  startRedisCluster,
  startRedisServer,
} from '../../testing/redis-server';
import { createRedisStore, DEFAULT_REDIS_KEY_PREFIX } from './redis-store';
import { type RedisTarget, redisClient } from './redis-target';
import type { Store } from './store';

let redis: RunningRedis;
let cluster: RunningRedisCluster;
const opened: Store[] = [];

beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

function storeOn(target: RedisTarget, keyPrefix: string): Store {
  const store = createRedisStore({ target, keyPrefix, connectWaitMs: 5_000 });
  opened.push(store);
  return store;
}

/** Commands a script may send that name no key. */
const KEYLESS = new Set(['time']);

describe('the Redis store’s scripts', () => {
  it('touch only the keys they declare', async () => {
    const keyPrefix = `declared-${randomBytes(4).toString('hex')}:`;
    const watcher = new Redis(redis.port, '127.0.0.1');
    const monitor = await watcher.monitor();
    const seen: Array<{ args: string[]; source: string }> = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ args, source }));
    const marker = new Redis(redis.port, '127.0.0.1');
    // Opened once the monitor watches (ioredis mistakes a command seen while it starts for an answer).
    await marker.ping();
    const store = storeOn({ kind: 'url', url: redis.url }, keyPrefix);
    await store.ping();
    const undeclared: string[] = [];

    /** Runs `operation`, then checks what its scripts touched against what they declared. */
    async function check(what: string, operation: () => Promise<unknown>): Promise<void> {
      seen.length = 0;
      await operation();
      const done = `done ${randomBytes(4).toString('hex')}`;
      await marker.echo(done);
      await new Promise<void>((resolve) => {
        const poll = () => (seen.some(({ args }) => args[1] === done) ? resolve() : setTimeout(poll, 5));
        poll();
      });
      const declared = new Set<string>();
      for (const { args } of seen) {
        const command = args[0]?.toLowerCase();
        if (command === 'eval' || command === 'evalsha') {
          for (const key of args.slice(3, 3 + Number(args[2]))) declared.add(key);
        }
      }
      for (const { args, source } of seen) {
        const command = args[0]?.toLowerCase() as string;
        if (source !== 'lua' || KEYLESS.has(command)) continue;
        if (!declared.has(args[1] as string)) undeclared.push(`${what}: ${args.join(' ')}`);
      }
    }

    const T = Date.now();
    await check('insert', () => store.insert('entry', 'one', 60_000));
    const entry = await store.get('entry');
    await check('compare-and-set', () => store.compareAndSet('entry', entry?.version ?? 0, 'two', 60_000));
    await check('compare-and-delete', () => store.compareAndDelete('entry', (entry?.version ?? 0) + 1));
    await check('increment', () => store.increment('counter', 1, 60_000));
    const index = store.sortedIndex('by-time');
    await check('index add', () => index.add('member', 1, 60_000));
    await check('index range', () => index.range({ fromScore: 0, toScore: 10, after: null, limit: 10 }));
    await check('index remove', () => index.remove('member'));
    const queue = store.queue('deliveries');
    await check('queue add', () => queue.add({ id: 'a', partition: 'shop', dueAtMs: T - 1_000 }));
    await check('queue add', () => queue.add({ id: 'b', partition: 'shop-pay', dueAtMs: T - 1_000 }));
    await check('queue claim', () => queue.claim(T, { limit: 10, perPartition: 10, leaseMs: 1_000 }));
    await check('queue reschedule', () => queue.reschedule('a', T + 5_000));
    await check('queue pause', () => queue.pausePartition('shop-pay', T + 5_000));
    await check('queue get', () => queue.get('a'));
    await check('queue stats', () => queue.stats());
    await check('queue scan', () => queue.scan(null, 10));
    await check('queue remove', () => queue.remove('a'));
    monitor.disconnect();
    watcher.disconnect();
    marker.disconnect();
    expect(undeclared).toEqual([]);
  });
});

const FIXTURE = readFileSync(
  new URL('./record-fixtures/redis-work-queue.layout-1.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as [string, string, string, string]);
/** The time the fixture was written at: items due before it, one an hour after, a partition paused a minute. */
const T = 1_800_000_000_000;

describe('a work queue written by the release before', () => {
  it.each(['one server', 'a cluster'])('is served by this release on %s', async (on) => {
    const target: RedisTarget = on === 'one server' ? { kind: 'url', url: redis.url } : cluster.target;
    const keyPrefix = `upgrade-${randomBytes(4).toString('hex')}:`;
    const writer = redisClient(target, {});
    try {
      for (const [command, key, ...args] of FIXTURE) {
        await writer.call(command, key.replace(DEFAULT_REDIS_KEY_PREFIX, keyPrefix), ...args);
      }
    } finally {
      writer.disconnect();
    }
    const queue = storeOn(target, keyPrefix).queue('webhook-deliveries');
    expect(await queue.stats()).toEqual({
      size: 5,
      nextClaimableAtMs: T - 2_000,
      oldestAddedAtMs: T - 60_000,
    });
    expect(await queue.get('evt_later')).toEqual({
      id: 'evt_later',
      partition: 'shop',
      dueAtMs: T + 3_600_000,
    });
    const lease = { limit: 10, perPartition: 10, leaseMs: 120_000 };
    const claimed = await queue.claim(T, lease);
    expect(claimed.map((item) => item.id).sort()).toEqual(['evt_due_a', 'evt_due_b', 'evt_other']);
    // The paused partition, once its pause is over.
    expect((await queue.claim(T + 60_000, lease)).map((item) => item.id)).toEqual(['evt_paused']);
    await queue.remove('evt_due_a');
    await queue.reschedule('evt_later', T + 40_000);
    expect(await queue.get('evt_due_a')).toBeNull();
    expect((await queue.claim(T + 40_000, lease)).map((item) => item.id)).toEqual(['evt_later']);
    expect((await queue.stats()).size).toBe(4);
  });
});
