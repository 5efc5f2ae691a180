/**
 * @module
 * The store for several BFF instances behind a load balancer: Redis (one server, the primary of Sentinels, or a
 * Redis Cluster: `redis-target.ts`). Every write
 * that depends on what is there is one Lua script, so compare-and-set is atomic across instances; the work
 * queues are in `redis-work-queue.ts`. While Redis
 * is away every operation fails fast with `StoreUnavailableError` (see `redis-connection.ts`).
 */
import type { Logger } from '../logger';
import { connectRedis, WRITE_FENCE as FENCE } from './redis-connection';
import { createRedisEntryBook } from './redis-entry-book';
import { createReplicaConfirmation, type ReplicaWait } from './redis-replica-wait';
import { scanKeyspace } from './redis-scan';
import { createRedisSortedIndex } from './redis-sorted-index';
import type { RedisTarget } from './redis-target';
import { createRedisWorkQueue } from './redis-work-queue';
import type { CounterState, Store, Versioned } from './store';
import type { WorkQueue } from './work-queue';

/** Insert only if absent: a hash of value and version 1, with a TTL. */
const INSERT = `${FENCE}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[2], 'version', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Replace only if the version still matches. */
const COMPARE_AND_SET = `${FENCE}
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[3], 'version', tonumber(version) + 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** Delete only if the version still matches. */
const COMPARE_AND_DELETE = `${FENCE}
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** A fixed-window counter: the first increment sets the window's expiry. */
const INCREMENT = `${FENCE}
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return { count, ttl }`;

export interface RedisStoreOptions {
  /** `redis://host:port/db`, or `target` */
  url?: string;
  /** The server, the Sentinels of the primary or a cluster (`redis-target.ts`); `url` is short for one server. */
  target?: RedisTarget;
  /** Prepended to every key, so that several deployments can share one Redis. */
  keyPrefix?: string;
  /** Give up on a command after this long: the request is refused (503) instead of hanging. */
  commandTimeoutMs?: number;
  /** Give up waiting for a connection being made after this long (at start, or as Redis returns). */
  connectWaitMs?: number;
  /** Where an outage's start and end are logged. */
  logger?: Logger;
  /** Money writes confirmed on this many replicas (`WAIT`) before the money moves: `confirmReplicated`. Default: none. */
  waitForReplicas?: ReplicaWait | undefined;
}

const ttlArgument = (ms: number) => Math.max(1, Math.ceil(ms));

/** The prefix of every key unless `keyPrefix` says otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'esim-bff:';

/** A {@link Store} in Redis. Connects at once in the background; `ping()` says whether Redis answers. */
export function createRedisStore(options: RedisStoreOptions): Store {
  const { keyPrefix, commandTimeoutMs, connectWaitMs, logger } = {
    keyPrefix: DEFAULT_REDIS_KEY_PREFIX,
    commandTimeoutMs: 500,
    connectWaitMs: 250,
    ...options,
  };
  const target = options.target ?? { kind: 'url', url: options.url ?? '' };
  if (target.kind === 'url' && target.url === '') throw new Error('a Redis store needs a url or a target');
  const connection = connectRedis({ target, commandTimeoutMs, connectWaitMs, logger });
  const { redis } = connection;
  const key = (name: string) => `${keyPrefix}${name}`;
  const queues = new Map<string, WorkQueue>();
  const replicas =
    options.waitForReplicas === undefined
      ? null
      : createReplicaConfirmation({
          target,
          wait: options.waitForReplicas,
          keyPrefix,
          commandTimeoutMs,
          connectWaitMs,
          logger,
        });

  return {
    get: (name) =>
      connection.run(async (): Promise<Versioned | null> => {
        const [value, version] = await redis.hmget(key(name), 'value', 'version');
        if (value === null || value === undefined || version === null || version === undefined) return null;
        return { value, version: Number(version) };
      }),
    insert: (name, value, ttlMs) =>
      connection.run(
        async (deadline) =>
          (await redis.eval(INSERT, 1, key(name), deadline, value, ttlArgument(ttlMs))) === 1,
      ),
    compareAndSet: (name, expectedVersion, value, ttlMs) =>
      connection.run(async (deadline) => {
        const args = [deadline, expectedVersion, value, ttlArgument(ttlMs)];
        return (await redis.eval(COMPARE_AND_SET, 1, key(name), ...args)) === 1;
      }),
    compareAndDelete: (name, expectedVersion) =>
      connection.run(
        async (deadline) =>
          (await redis.eval(COMPARE_AND_DELETE, 1, key(name), deadline, expectedVersion)) === 1,
      ),
    increment: (name, by, windowMs) =>
      connection.run(async (deadline): Promise<CounterState> => {
        const result = (await redis.eval(INCREMENT, 1, key(name), deadline, by, ttlArgument(windowMs))) as [
          number,
          number,
        ];
        return { count: Number(result[0]), resetInMs: Number(result[1]) };
      }),
    queue(name) {
      let queue = queues.get(name);
      if (queue === undefined) {
        queue = createRedisWorkQueue(connection, keyPrefix, name, Date.now);
        queues.set(name, queue);
      }
      return queue;
    },
    sortedIndex: (name) => createRedisSortedIndex(connection, keyPrefix, name, Date.now),
    entryBook: (name) => createRedisEntryBook(connection, keyPrefix, name),
    scanKeys: (prefix, cursor, count) =>
      connection.run(async () => {
        const pattern = `${keyPrefix}${prefix}`.replace(/[*?[\]\\]/g, '\\$&');
        const page = await scanKeyspace(redis, `${pattern}*`, cursor, count);
        return { keys: page.keys.map((full) => full.slice(keyPrefix.length)), cursor: page.cursor };
      }),
    ...(replicas === null ? {} : { confirmReplicated: (name: string) => replicas.confirm(key(name)) }),
    async ping() {
      try {
        return (await connection.run(() => redis.ping())) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.all([connection.close(), replicas?.close()]);
    },
  };
}
