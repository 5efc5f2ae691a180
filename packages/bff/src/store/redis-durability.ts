/**
 * @module
 * What the Redis under the store keeps when it must choose, read at start: `maxmemory-policy` (an evicting policy
 * drops keys with a TTL — every key the store writes has one, so checkouts, leases and idempotency records would
 * vanish under memory pressure), and `appendonly`/`appendfsync` (how much an acknowledged write may be lost in a
 * crash). In production an evicting policy stops the start with a message naming the setting; elsewhere it is a
 * warning. Managed services that hide `CONFIG` still answer `INFO`, which is what is read first.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { RedisSettingError, type RedisTarget, redisClient } from './redis-target';

/** The durability settings as read, `unknown` for one the server would not tell. */
export interface RedisDurability {
  maxmemoryPolicy: string;
  appendonly: string;
  appendfsync: string;
}

/** The one `maxmemory-policy` under which Redis refuses a write instead of dropping a key. */
const KEEPS_EVERY_KEY = 'noeviction';

/** `field:value` of an `INFO` section's text. */
const infoField = (info: string, field: string) =>
  new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? 'unknown';

/** The settings of one server. */
async function readServer(redis: Redis): Promise<RedisDurability> {
  const [memory, persistence] = await Promise.all([redis.info('memory'), redis.info('persistence')]);
  const appendfsync = await redis
    .call('CONFIG', 'GET', 'appendfsync')
    .then((reply) => String((reply as string[])[1] ?? 'unknown'))
    .catch(() => 'unknown');
  return {
    maxmemoryPolicy: infoField(memory, 'maxmemory_policy'),
    appendonly: { 1: 'yes', 0: 'no' }[infoField(persistence, 'aof_enabled')] ?? 'unknown',
    appendfsync,
  };
}

/**
 * Reads the settings from `target` (a connection of its own, closed after). Of a cluster, every primary is read
 * and the least durable answers: one evicting primary loses the keys of its slots.
 */
export async function readRedisDurability(target: RedisTarget): Promise<RedisDurability> {
  const redis = redisClient(target, { maxRetriesPerRequest: 1, connectTimeout: 5_000, lazyConnect: true });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const servers = 'nodes' in redis ? redis.nodes('master') : [redis];
    const read = await Promise.all(servers.map(readServer));
    const evicting = read.find(({ maxmemoryPolicy }) => maxmemoryPolicy !== KEEPS_EVERY_KEY);
    const volatile = read.find(({ appendonly }) => appendonly !== 'yes');
    return evicting ?? volatile ?? (read[0] as RedisDurability);
  } finally {
    redis.disconnect();
  }
}

/**
 * Checks the durability of the Redis at `target` at start: logs what it read, and refuses an evicting
 * `maxmemory-policy` when `production` (throws {@link RedisSettingError}), warns of it otherwise. A Redis that
 * cannot be read now is logged and not waited for: the store answers 503 until it is there.
 */
export async function checkRedisDurability(
  target: RedisTarget,
  options: { production: boolean; logger: Logger },
): Promise<RedisDurability | null> {
  const durability = await readRedisDurability(target).catch((error: unknown) => {
    options.logger.warn('could not read the durability settings of Redis at start', {
      cause: (error as Error).message,
    });
    return null;
  });
  if (durability === null) return null;
  options.logger.info('Redis durability', { ...durability });
  if (durability.maxmemoryPolicy !== KEEPS_EVERY_KEY && durability.maxmemoryPolicy !== 'unknown') {
    const message =
      `Redis's maxmemory-policy is ${durability.maxmemoryPolicy}: under memory pressure it drops keys that ` +
      'have a TTL, and every key of the store has one (checkouts, leases, idempotency records). Set ' +
      '`maxmemory-policy noeviction` (Redis then refuses writes, which the BFF answers 503, instead of losing sales).';
    if (options.production) throw new RedisSettingError(message);
    options.logger.warn(message);
  }
  if (durability.appendonly !== 'yes') {
    options.logger.warn('Redis has appendonly off: a crash loses every write since its last snapshot');
  }
  return durability;
}
