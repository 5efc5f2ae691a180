/**
 * @module
 * A {@link WorkQueue} in Redis, shared by every instance: a sorted set of ids by due time per partition, a sorted
 * set of partitions by the time they can next be claimed (their earliest item, or their pause's end), a hash of
 * each item's partition, a hash of pauses and a sorted set of ids by the time they were added. Each write is one
 * Lua script behind the store's write fence, touching O(log n) entries (a claim: O(limit · log n)); no value grows
 * with the backlog. The keys of one queue share a hash tag, so a cluster keeps them on one node.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type RedisConnection, WRITE_FENCE } from './redis-connection';
import type { ClaimOptions, QueueItem, QueueStats, WorkQueue } from './work-queue';

/**
 * After the fence: the queue's keys (`KEYS[1..4]`: item partitions, partitions by claimable time, pauses, ids by
 * time added), the prefix of the per-partition due sets (`ARGV[2]`), and `settle`, which puts one partition back
 * in order after its items or its pause changed.
 */
const QUEUE_PREAMBLE = `${WRITE_FENCE}
local items, partitions, paused, added = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local duePrefix = ARGV[2]
local function settle(partition)
  local head = redis.call('ZRANGE', duePrefix .. partition, 0, 0, 'WITHSCORES')
  if #head == 0 then
    redis.call('ZREM', partitions, partition)
    return
  end
  local at = tonumber(head[2])
  local pause = tonumber(redis.call('HGET', paused, partition) or '0')
  if pause > at then at = pause end
  redis.call('ZADD', partitions, at, partition)
end`;

/** ARGV: id, partition, due, added at. */
const ADD = `${QUEUE_PREAMBLE}
local id, partition = ARGV[3], ARGV[4]
if redis.call('HSETNX', items, id, partition) == 0 then return 0 end
redis.call('ZADD', duePrefix .. partition, ARGV[5], id)
redis.call('ZADD', added, ARGV[6], id)
settle(partition)
return 1`;

/** ARGV: now, limit, per partition, lease. Answers id, partition, id, partition, … */
const CLAIM = `${QUEUE_PREAMBLE}
local now, limit, perPartition = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local leaseEnd = now + tonumber(ARGV[6])
local claimed = {}
local count = 0
local ready = redis.call('ZRANGEBYSCORE', partitions, '-inf', now, 'LIMIT', 0, limit)
for _, partition in ipairs(ready) do
  if count >= limit then break end
  local pause = tonumber(redis.call('HGET', paused, partition) or '0')
  if pause > 0 and pause <= now then redis.call('HDEL', paused, partition) end
  if pause <= now then
    local dueKey = duePrefix .. partition
    local due = redis.call('ZRANGEBYSCORE', dueKey, '-inf', now, 'LIMIT', 0, math.min(perPartition, limit - count))
    for _, id in ipairs(due) do
      redis.call('ZADD', dueKey, leaseEnd, id)
      claimed[#claimed + 1] = id
      claimed[#claimed + 1] = partition
      count = count + 1
    end
  end
  settle(partition)
end
return claimed`;

/** ARGV: id, due. */
const RESCHEDULE = `${QUEUE_PREAMBLE}
local partition = redis.call('HGET', items, ARGV[3])
if not partition then return 0 end
redis.call('ZADD', duePrefix .. partition, 'XX', ARGV[4], ARGV[3])
settle(partition)
return 1`;

/** ARGV: partition, until. */
const PAUSE = `${QUEUE_PREAMBLE}
redis.call('HSET', paused, ARGV[3], ARGV[4])
settle(ARGV[3])
return 1`;

/** ARGV: id. */
const REMOVE = `${QUEUE_PREAMBLE}
local partition = redis.call('HGET', items, ARGV[3])
if not partition then return 0 end
redis.call('HDEL', items, ARGV[3])
redis.call('ZREM', duePrefix .. partition, ARGV[3])
redis.call('ZREM', added, ARGV[3])
settle(partition)
return 1`;

/** A read: KEYS[1] item partitions; ARGV: due prefix, id. */
const GET = `
local partition = redis.call('HGET', KEYS[1], ARGV[2])
if not partition then return false end
return { partition, redis.call('ZSCORE', ARGV[1] .. partition, ARGV[2]) }`;

/** A read: size, next claimable time, oldest added time. */
const STATS = `
local nextClaimable = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local oldest = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
return { redis.call('HLEN', KEYS[1]), nextClaimable[2] or false, oldest[2] or false }`;

/** A read: KEYS[1] item partitions; ARGV: due prefix, cursor, count. Answers the next cursor and id, partition, due, … */
const SCAN = `
local page = redis.call('HSCAN', KEYS[1], ARGV[2], 'COUNT', ARGV[3])
local found = {}
for index = 1, #page[2], 2 do
  local id, partition = page[2][index], page[2][index + 1]
  found[#found + 1] = id
  found[#found + 1] = partition
  found[#found + 1] = redis.call('ZSCORE', ARGV[1] .. partition, id) or '0'
end
return { page[1], found }`;

/** A Lua script run by its digest (sent whole once per connection, when Redis does not know it yet). */
function luaScript(text: string) {
  const digest = createHash('sha1').update(text).digest('hex');
  return async (redis: Redis, keys: string[], args: Array<string | number>): Promise<unknown> => {
    try {
      return await redis.evalsha(digest, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return await redis.eval(text, keys.length, ...keys, ...args);
    }
  };
}

const SCRIPTS = {
  add: luaScript(ADD),
  claim: luaScript(CLAIM),
  reschedule: luaScript(RESCHEDULE),
  pause: luaScript(PAUSE),
  remove: luaScript(REMOVE),
  get: luaScript(GET),
  stats: luaScript(STATS),
  scan: luaScript(SCAN),
};

const score = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The queue `name` under `keyPrefix`; `now` stamps when an item was added. */
export function createRedisWorkQueue(
  connection: RedisConnection,
  keyPrefix: string,
  name: string,
  now: () => number,
): WorkQueue {
  const { redis } = connection;
  const base = `${keyPrefix}queue:{${name}}:`;
  const keys = [`${base}items`, `${base}partitions`, `${base}paused`, `${base}added`];
  const duePrefix = `${base}due:`;

  const write = (script: (typeof SCRIPTS)[keyof typeof SCRIPTS], args: Array<string | number>) =>
    connection.run((deadline) => script(redis, keys, [deadline, duePrefix, ...args]));

  return {
    async add(item) {
      return (await write(SCRIPTS.add, [item.id, item.partition, item.dueAtMs, now()])) === 1;
    },
    async claim(nowMs, options: ClaimOptions) {
      const { limit, perPartition, leaseMs } = options;
      if (limit <= 0 || perPartition <= 0) return [];
      const flat = (await write(SCRIPTS.claim, [nowMs, limit, perPartition, leaseMs])) as string[];
      const claimed: QueueItem[] = [];
      for (let index = 0; index < flat.length; index += 2) {
        claimed.push({
          id: flat[index] as string,
          partition: flat[index + 1] as string,
          dueAtMs: nowMs + leaseMs,
        });
      }
      return claimed;
    },
    async reschedule(id, dueAtMs) {
      await write(SCRIPTS.reschedule, [id, dueAtMs]);
    },
    async pausePartition(partition, untilMs) {
      await write(SCRIPTS.pause, [partition, untilMs]);
    },
    async remove(id) {
      await write(SCRIPTS.remove, [id]);
    },
    async get(id) {
      const found = (await connection.run(() => SCRIPTS.get(redis, keys.slice(0, 1), [duePrefix, id]))) as
        | [string, string | null]
        | null;
      if (found === null || found[1] === null) return null;
      return { id, partition: found[0], dueAtMs: Number(found[1]) };
    },
    async stats(): Promise<QueueStats> {
      const [size, nextClaimable, oldest] = (await connection.run(() => SCRIPTS.stats(redis, keys, []))) as [
        number,
        string | null,
        string | null,
      ];
      return { size: Number(size), nextClaimableAtMs: score(nextClaimable), oldestAddedAtMs: score(oldest) };
    },
    async scan(cursor, count) {
      const [next, flat] = (await connection.run(() =>
        SCRIPTS.scan(redis, keys.slice(0, 1), [duePrefix, cursor ?? '0', count]),
      )) as [string, string[]];
      const items: QueueItem[] = [];
      for (let index = 0; index < flat.length; index += 3) {
        items.push({
          id: flat[index] as string,
          partition: flat[index + 1] as string,
          dueAtMs: Number(flat[index + 2]),
        });
      }
      return { items, cursor: next === '0' ? null : next };
    },
  };
}
