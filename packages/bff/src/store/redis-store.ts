/**
 * @module
 * The store for several BFF instances behind a load balancer: Redis (`ESIM_BFF_REDIS_URL`). Every write
 * that depends on what is there is one Lua script, so compare-and-set is atomic across instances.
 */
import { Redis } from 'ioredis';
import type { CounterState, Store, Versioned } from './store';

/** Insert only if absent: a hash of value and version 1, with a TTL. */
const INSERT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Replace only if the version still matches. */
const COMPARE_AND_SET = `
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[2], 'version', tonumber(version) + 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Delete only if the version still matches. */
const COMPARE_AND_DELETE = `
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** A fixed-window counter: the first increment sets the window's expiry. */
const INCREMENT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { count, ttl }`;

export interface RedisStoreOptions {
  /** `redis://host:port/db` */
  url: string;
  /** Prepended to every key, so that several deployments can share one Redis. */
  keyPrefix?: string;
  /** Give up on a command after this long (the request then fails instead of hanging). */
  commandTimeoutMs?: number;
}

/** A {@link Store} in Redis. Connects lazily; `ping()` says whether Redis answers. */
export function createRedisStore(options: RedisStoreOptions): Store {
  const { url, keyPrefix, commandTimeoutMs } = {
    keyPrefix: 'esim-bff:',
    commandTimeoutMs: 2_000,
    ...options,
  };
  const redis = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Connection errors surface on the commands that fail; without a listener ioredis would print them.
  redis.on('error', () => {});
  const key = (name: string) => `${keyPrefix}${name}`;

  return {
    async get(name): Promise<Versioned | null> {
      const [value, version] = await redis.hmget(key(name), 'value', 'version');
      if (value === null || value === undefined || version === null || version === undefined) return null;
      return { value, version: Number(version) };
    },
    async insert(name, value, ttlMs) {
      return (await redis.eval(INSERT, 1, key(name), value, Math.max(1, Math.ceil(ttlMs)))) === 1;
    },
    async compareAndSet(name, expectedVersion, value, ttlMs) {
      const result = await redis.eval(
        COMPARE_AND_SET,
        1,
        key(name),
        expectedVersion,
        value,
        Math.max(1, Math.ceil(ttlMs)),
      );
      return result === 1;
    },
    async compareAndDelete(name, expectedVersion) {
      return (await redis.eval(COMPARE_AND_DELETE, 1, key(name), expectedVersion)) === 1;
    },
    async increment(name, by, windowMs): Promise<CounterState> {
      const result = (await redis.eval(INCREMENT, 1, key(name), by, Math.max(1, Math.ceil(windowMs)))) as [
        number,
        number,
      ];
      return { count: Number(result[0]), resetInMs: Number(result[1]) };
    },
    async ping() {
      try {
        return (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
