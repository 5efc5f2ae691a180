/**
 * @module
 * The store for several BFF instances behind a load balancer: Redis (`ESIM_BFF_REDIS_URL`). Every write
 * that depends on what is there is one Lua script, so compare-and-set is atomic across instances. While Redis
 * is away every operation fails fast with `StoreUnavailableError` (see `redis-connection.ts`).
 */
import type { Logger } from '../logger';
import { connectRedis, LATE_WRITE_REPLY } from './redis-connection';
import type { CounterState, Store, Versioned } from './store';

/**
 * The start of every write script: `ARGV[1]` is the deadline in Redis's clock (ms, 0: none). A write that
 * arrives later (Redis was paused while its caller timed out and answered 503) must not apply after all.
 */
const FENCE = `
local deadline = tonumber(ARGV[1])
if deadline > 0 then
  local time = redis.call('TIME')
  if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > deadline then
    return redis.error_reply('${LATE_WRITE_REPLY} the write arrived after its caller gave up')
  end
end`;

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
  /** `redis://host:port/db` */
  url: string;
  /** Prepended to every key, so that several deployments can share one Redis. */
  keyPrefix?: string;
  /** Give up on a command after this long: the request is refused (503) instead of hanging. */
  commandTimeoutMs?: number;
  /** Give up waiting for a connection being made after this long (at start, or as Redis returns). */
  connectWaitMs?: number;
  /** Where an outage's start and end are logged. */
  logger?: Logger;
}

const ttlArgument = (ms: number) => Math.max(1, Math.ceil(ms));

/** The prefix of every key unless `keyPrefix` says otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'esim-bff:';

/** A {@link Store} in Redis. Connects at once in the background; `ping()` says whether Redis answers. */
export function createRedisStore(options: RedisStoreOptions): Store {
  const { url, keyPrefix, commandTimeoutMs, connectWaitMs, logger } = {
    keyPrefix: DEFAULT_REDIS_KEY_PREFIX,
    commandTimeoutMs: 500,
    connectWaitMs: 250,
    ...options,
  };
  const connection = connectRedis({ url, commandTimeoutMs, connectWaitMs, logger });
  const { redis } = connection;
  const key = (name: string) => `${keyPrefix}${name}`;

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
    async ping() {
      try {
        return (await connection.run(() => redis.ping())) === 'PONG';
      } catch {
        return false;
      }
    },
    close: () => connection.close(),
  };
}
