/**
 * @module
 * A {@link WorkQueue} in Redis, shared by every instance: a sorted set of ids by due time per partition, a sorted
 * set of partitions by the time they can next be claimed (their earliest item, or their pause's end), a hash of
 * each item's partition, a hash of pauses and a sorted set of ids by the time they were added. Each write is one
 * Lua script behind the store's write fence, touching O(log n) entries (a claim: O(limit · log n)); no value grows
 * with the backlog. The keys of one queue share a hash tag, so a cluster keeps them in one slot, and every
 * script declares each key it touches: a partition's due set is named by the caller, which reads the partition
 * first when it only knows an item (or, for a claim, the claimable partitions), and the script checks again
 * what was read. (Before, the scripts built the due sets' names themselves; the keys are the same, so a queue
 * written by that release is served as it is.)
 */
import { createHash } from 'node:crypto';
import { type RedisConnection, WRITE_FENCE } from './redis-connection';
import type { RedisClient } from './redis-target';
import type { ClaimOptions, QueueItem, QueueStats, WorkQueue } from './work-queue';

/**
 * After the fence: the queue's keys (`KEYS[1..4]`: item partitions, partitions by claimable time, pauses, ids by
 * time added), then the due sets of the partitions the call touches (`KEYS[5..]`, each declared: a cluster checks
 * a script's keys, and the `{name}` tag they share keeps them in one slot), and `settle`, which puts one partition
 * back in order after its items or its pause changed.
 */
const QUEUE_PREAMBLE = `${WRITE_FENCE}
local items, partitions, paused, added = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local function settle(partition, dueKey)
  local head = redis.call('ZRANGE', dueKey, 0, 0, 'WITHSCORES')
  if #head == 0 then
    redis.call('ZREM', partitions, partition)
    return
  end
  local at = tonumber(head[2])
  local pause = tonumber(redis.call('HGET', paused, partition) or '0')
  if pause > at then at = pause end
  redis.call('ZADD', partitions, at, partition)
end`;

/** KEYS[5]: the partition's due set. ARGV: id, partition, due, added at. */
const ADD = `${QUEUE_PREAMBLE}
local id, partition, dueKey = ARGV[2], ARGV[3], KEYS[5]
if redis.call('HSETNX', items, id, partition) == 0 then return 0 end
redis.call('ZADD', dueKey, ARGV[4], id)
redis.call('ZADD', added, ARGV[5], id)
settle(partition, dueKey)
return 1`;

/**
 * KEYS[5..]: the due sets of the partitions that were claimable when read, ARGV[6..] their names. ARGV: now,
 * limit, per partition, lease. Each partition is checked again here (another instance may have claimed from it
 * since). Answers id, partition, id, partition, …
 */
const CLAIM = `${QUEUE_PREAMBLE}
local now, limit, perPartition = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local leaseEnd = now + tonumber(ARGV[5])
local claimed = {}
local count = 0
for index = 5, #KEYS do
  if count >= limit then break end
  local dueKey, partition = KEYS[index], ARGV[index + 1]
  local at = redis.call('ZSCORE', partitions, partition)
  if at and tonumber(at) <= now then
    local pause = tonumber(redis.call('HGET', paused, partition) or '0')
    if pause > 0 and pause <= now then redis.call('HDEL', paused, partition) end
    if pause <= now then
      local due = redis.call('ZRANGEBYSCORE', dueKey, '-inf', now, 'LIMIT', 0, math.min(perPartition, limit - count))
      for _, id in ipairs(due) do
        redis.call('ZADD', dueKey, leaseEnd, id)
        claimed[#claimed + 1] = id
        claimed[#claimed + 1] = partition
        count = count + 1
      end
    end
    settle(partition, dueKey)
  end
end
return claimed`;

/**
 * The start of a script on one item, told its partition (read just before) and that partition's due set
 * (`KEYS[5]`): ARGV[2] id, ARGV[3] partition. Answers -1 when the item's partition is no longer the one read (it
 * was removed, or removed and added again elsewhere): the caller reads it again.
 */
const ON_ITEM = `${QUEUE_PREAMBLE}
local id, partition, dueKey = ARGV[2], ARGV[3], KEYS[5]
if redis.call('HGET', items, id) ~= partition then return -1 end`;

/** ARGV after the item's: due. */
const RESCHEDULE = `${ON_ITEM}
redis.call('ZADD', dueKey, 'XX', ARGV[4], id)
settle(partition, dueKey)
return 1`;

/** KEYS[5]: the partition's due set. ARGV: partition, until. */
const PAUSE = `${QUEUE_PREAMBLE}
redis.call('HSET', paused, ARGV[2], ARGV[3])
settle(ARGV[2], KEYS[5])
return 1`;

const REMOVE = `${ON_ITEM}
redis.call('HDEL', items, id)
redis.call('ZREM', dueKey, id)
redis.call('ZREM', added, id)
settle(partition, dueKey)
return 1`;

/** A read: KEYS[1] item partitions, KEYS[2] the due set of the partition read before; ARGV: id, partition. */
const GET = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return -1 end
return redis.call('ZSCORE', KEYS[2], ARGV[1])`;

/** A read: size, next claimable time, oldest added time. */
const STATS = `
local nextClaimable = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local oldest = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
return { redis.call('HLEN', KEYS[1]), nextClaimable[2] or false, oldest[2] or false }`;

/** How often a call on one item reads its partition again when the item moved meanwhile. */
const ITEM_ATTEMPTS = 3;

/** A Lua script run by its digest (sent whole once per connection, when Redis does not know it yet). */
function luaScript(text: string) {
  const digest = createHash('sha1').update(text).digest('hex');
  return async (redis: RedisClient, keys: string[], args: Array<string | number>): Promise<unknown> => {
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
};

type Script = (typeof SCRIPTS)[keyof typeof SCRIPTS];

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
  const [itemsKey, partitionsKey] = keys as [string, string];
  const dueKey = (partition: string) => `${base}due:${partition}`;

  const write = (script: Script, extraKeys: string[], args: Array<string | number>) =>
    connection.run((deadline) => script(redis, [...keys, ...extraKeys], [deadline, ...args]));

  /**
   * Runs `script` on the item `id` in its partition's due set: reads the partition, then runs the script told it
   * (which checks it again). Answers null when there is no such item.
   */
  async function onItem(id: string, run: (partition: string) => Promise<unknown>) {
    for (let attempt = 0; attempt < ITEM_ATTEMPTS; attempt += 1) {
      const partition = await redis.hget(itemsKey, id);
      if (partition === null) return null;
      const answer = await run(partition);
      if (answer !== -1) return { partition, answer };
    }
    throw new Error(`the work item ${id} moved between partitions ${ITEM_ATTEMPTS} times while being read`);
  }

  /** The item's script, as a write behind the fence (`deadline` is the operation's). */
  const writeOnItem = (script: Script, id: string, args: Array<string | number>) =>
    connection.run((deadline) =>
      onItem(id, (partition) =>
        script(redis, [...keys, dueKey(partition)], [deadline, id, partition, ...args]),
      ),
    );

  return {
    async add(item) {
      const { id, partition, dueAtMs } = item;
      return (await write(SCRIPTS.add, [dueKey(partition)], [id, partition, dueAtMs, now()])) === 1;
    },
    async claim(nowMs, options: ClaimOptions) {
      const { limit, perPartition, leaseMs } = options;
      if (limit <= 0 || perPartition <= 0) return [];
      const flat = (await connection.run(async (deadline) => {
        // The partitions claimable now, read first so the claim can name their due sets.
        const ready = await redis.zrangebyscore(partitionsKey, '-inf', nowMs, 'LIMIT', 0, limit);
        if (ready.length === 0) return [];
        const args = [deadline, nowMs, limit, perPartition, leaseMs, ...ready];
        return await SCRIPTS.claim(redis, [...keys, ...ready.map(dueKey)], args);
      })) as string[];
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
      await writeOnItem(SCRIPTS.reschedule, id, [dueAtMs]);
    },
    async pausePartition(partition, untilMs) {
      await write(SCRIPTS.pause, [dueKey(partition)], [partition, untilMs]);
    },
    async remove(id) {
      await writeOnItem(SCRIPTS.remove, id, []);
    },
    async get(id) {
      const found = await connection.run(() =>
        onItem(id, (partition) => SCRIPTS.get(redis, [itemsKey, dueKey(partition)], [id, partition])),
      );
      if (found === null || found.answer === null) return null;
      return { id, partition: found.partition, dueAtMs: Number(found.answer) };
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
      return await connection.run(async () => {
        const [next, flat] = await redis.hscan(itemsKey, cursor ?? '0', 'COUNT', count);
        const pairs: Array<[string, string]> = [];
        for (let index = 0; index + 1 < flat.length; index += 2) {
          pairs.push([flat[index] as string, flat[index + 1] as string]);
        }
        // One read per item, sent together; an item removed since the page was read is left out.
        const dues = await Promise.all(pairs.map(([id, partition]) => redis.zscore(dueKey(partition), id)));
        const items: QueueItem[] = [];
        pairs.forEach(([id, partition], index) => {
          const due = dues[index];
          if (due !== null && due !== undefined) items.push({ id, partition, dueAtMs: Number(due) });
        });
        return { items, cursor: next === '0' ? null : next };
      });
    },
  };
}
