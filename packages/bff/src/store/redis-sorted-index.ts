/**
 * @module
 * A {@link SortedIndex} in Redis, shared by every instance: a sorted set of members by score, and beside it a
 * sorted set of the same members by expiry (the two share a hash tag, so a cluster keeps them on one node).
 * Expired members are dropped a bounded batch at a time as the index is written and read, and both keys live as
 * long as their longest-lived member, so an index nobody reads any more goes away by itself. Each call is one
 * Lua script behind the store's write fence; a page costs O(log n + limit).
 */
import { type RedisConnection, WRITE_FENCE } from './redis-connection';
import type { IndexEntry, SortedIndex } from './store';

/** After the fence: drop up to `ARGV[2]`'s expired members (now is `ARGV[3]`) from both sets. */
const PRUNE = `${WRITE_FENCE}
local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, tonumber(ARGV[2]))
if #dead > 0 then
  redis.call('ZREM', KEYS[1], unpack(dead))
  redis.call('ZREM', KEYS[2], unpack(dead))
end`;

/** ARGV after the prune's: member, score, expires at, ttl. */
const ADD = `${PRUNE}
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[4])
local ttl = tonumber(ARGV[7])
for _, key in ipairs(KEYS) do
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return 1`;

const REMOVE = `${WRITE_FENCE}
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1`;

/**
 * ARGV after the prune's: lowest score, highest score (`(s` exclusive), the score whose members are all answered
 * apart ('' for none: the caller keeps those below the last member it answered), limit.
 */
const RANGE = `${PRUNE}
local ties = {}
if ARGV[6] ~= '' then ties = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[6], ARGV[6], 'WITHSCORES') end
local rest = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[5], ARGV[4], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[7]))
return { ties, rest }`;

/** How many expired members one call drops at most. */
const PRUNE_BATCH = 64;

/** A score as Redis reads it in a range. */
const scoreArgument = (score: number) =>
  score === Number.POSITIVE_INFINITY ? '+inf' : score === Number.NEGATIVE_INFINITY ? '-inf' : String(score);

/** `[member, score, member, score, …]` as entries. */
function entriesOf(flat: string[]): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (let at = 0; at + 1 < flat.length; at += 2)
    entries.push({ member: String(flat[at]), score: Number(flat[at + 1]) });
  return entries;
}

/** The sorted index `name`, its keys under `keyPrefix`. */
export function createRedisSortedIndex(
  connection: RedisConnection,
  keyPrefix: string,
  name: string,
  now: () => number,
): SortedIndex {
  const { redis } = connection;
  const keys = [`${keyPrefix}index:{${name}}`, `${keyPrefix}index:{${name}}:expiry`] as const;
  return {
    add: (member, score, ttlMs) =>
      connection.run(async (deadline) => {
        const time = now();
        const ttl = Math.max(1, Math.ceil(ttlMs));
        await redis.eval(ADD, 2, ...keys, deadline, PRUNE_BATCH, time, member, score, time + ttl, ttl);
      }),
    remove: (member) =>
      connection.run(async (deadline) => {
        await redis.eval(REMOVE, 2, ...keys, deadline, member);
      }),
    range: ({ fromScore, toScore, after, limit }) =>
      connection.run(async (deadline) => {
        const below = after !== null && after.score <= toScore;
        const ties = below && after.score >= fromScore ? String(after.score) : '';
        const upper = below ? `(${after.score}` : scoreArgument(toScore);
        const [tied, rest] = (await redis.eval(
          RANGE,
          2,
          ...keys,
          deadline,
          PRUNE_BATCH,
          now(),
          scoreArgument(fromScore),
          upper,
          ties,
          limit,
        )) as [string[], string[]];
        // Members of the last answered score that come after it (JavaScript compares as Redis orders: by code).
        const sameScore = entriesOf(tied)
          .filter((entry) => after !== null && entry.member < after.member)
          .sort((a, b) => (a.member < b.member ? 1 : a.member > b.member ? -1 : 0));
        return [...sameScore, ...entriesOf(rest)].slice(0, limit);
      }),
  };
}
