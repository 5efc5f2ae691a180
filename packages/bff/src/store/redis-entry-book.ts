/**
 * @module
 * An {@link EntryBook} in Redis, shared by every instance: a hash of entries, a hash of totals, a sorted set of
 * the entries' deadlines and a sorted set of marks (all at score 0, read by lexical range), under one hash tag so
 * a cluster keeps a book on one node. A read and a change are each one Lua script declaring the four keys; a
 * change (behind the store's write fence) checks its one entry, writes it, adds to the totals (`HINCRBY`: changes
 * of other entries never make it fail) and reads what it was asked, so its cost does not grow with the book. The
 * keys live `BOOK_RETENTION_MS` past the book's last change.
 */
import { type RedisConnection, WRITE_FENCE } from './redis-connection';
import { type BookChange, type BookQuery, type BookView, type EntryBook, STORE_KEYS } from './store';

/** How long a book outlives its last change. */
export const BOOK_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** `read(query)`: KEYS are entries, totals, deadlines, marks. */
const READ_VIEW = `
local function readView(q)
  local view = { entries = {}, totals = {}, due = {}, marks = {} }
  for _, id in ipairs(q.entries or {}) do
    local value = redis.call('HGET', KEYS[1], id)
    if value then view.entries[id] = value end
  end
  for _, name in ipairs(q.totals or {}) do
    view.totals[name] = tonumber(redis.call('HGET', KEYS[2], name) or '0')
  end
  if q.due then
    view.due = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', q.due.atMs), 'LIMIT', 0, q.due.limit)
  end
  for index, range in ipairs(q.marks or {}) do
    view.marks[index] = {
      first = redis.call('ZRANGEBYLEX', KEYS[4], '[' .. range.from, '(' .. range.to, 'LIMIT', 0, range.limit),
      count = redis.call('ZLEXCOUNT', KEYS[4], '[' .. range.from, '(' .. range.to),
    }
  end
  return view
end`;

const READ = `${READ_VIEW}
return cjson.encode(readView(cjson.decode(ARGV[1])))`;

/** ARGV after the fence: the change as JSON, the keys' retention. */
const CHANGE = `${WRITE_FENCE}
${READ_VIEW}
local change = cjson.decode(ARGV[2])
local current = redis.call('HGET', KEYS[1], change.id)
if change.expected == cjson.null then
  if current then return cjson.encode({ applied = false }) end
elseif current ~= change.expected then
  return cjson.encode({ applied = false })
end
if change.next == cjson.null then
  redis.call('HDEL', KEYS[1], change.id)
  redis.call('ZREM', KEYS[3], change.id)
else
  redis.call('HSET', KEYS[1], change.id, change.next)
  if change.deadlineMs == cjson.null then
    redis.call('ZREM', KEYS[3], change.id)
  else
    redis.call('ZADD', KEYS[3], string.format('%d', change.deadlineMs), change.id)
  end
end
for name, by in pairs(change.totals) do
  if by ~= 0 and redis.call('HINCRBY', KEYS[2], name, string.format('%d', by)) == 0 then
    redis.call('HDEL', KEYS[2], name)
  end
end
for _, mark in ipairs(change.removeMarks) do redis.call('ZREM', KEYS[4], mark) end
for _, mark in ipairs(change.addMarks) do redis.call('ZADD', KEYS[4], 0, mark) end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[3]) end
return cjson.encode({ applied = true, view = readView(change.read or {}) })`;

/** Lua's cjson writes an empty array as `{}`: read either as a list. */
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

interface RawView {
  entries?: Record<string, string> | unknown[];
  totals?: Record<string, number> | unknown[];
  due?: unknown;
  marks?: unknown;
}

function viewOf(raw: RawView, query: BookQuery): BookView {
  const totals: Record<string, number> = {};
  const read = Array.isArray(raw.totals) ? {} : (raw.totals ?? {});
  for (const name of query.totals ?? []) totals[name] = Number(read[name] ?? 0);
  return {
    entries: Array.isArray(raw.entries) ? {} : (raw.entries ?? {}),
    totals,
    due: list<string>(raw.due),
    marks: list<{ first: unknown; count: number }>(raw.marks).map((range) => ({
      first: list<string>(range.first),
      count: Number(range.count),
    })),
  };
}

/** The keys of the book `name` under `keyPrefix`: its entries, totals, deadlines and marks, in one hash tag. */
export function redisBookKeys(keyPrefix: string, name: string) {
  const entries = `${keyPrefix}${STORE_KEYS.entryBookEntries(name)}`;
  const tag = entries.slice(0, -':entries'.length);
  return [entries, `${tag}:totals`, `${tag}:deadlines`, `${tag}:marks`] as const;
}

/** The name of the book a key (without the prefix) belongs to, or null for a key of no book. */
export function bookNameOf(key: string): string | null {
  const match = /^book:\{(.+)\}:(entries|totals|deadlines|marks)$/.exec(key);
  return match === null ? null : (match[1] as string);
}

/** The entry book `name`, its keys under `keyPrefix`. */
export function createRedisEntryBook(
  connection: RedisConnection,
  keyPrefix: string,
  name: string,
): EntryBook {
  const { redis } = connection;
  const keys = redisBookKeys(keyPrefix, name);
  return {
    read: (query) =>
      connection.run(async () => {
        const answer = (await redis.eval(READ, keys.length, ...keys, JSON.stringify(query))) as string;
        return viewOf(JSON.parse(answer) as RawView, query);
      }),
    change: (change: BookChange) =>
      connection.run(async (deadline) => {
        const body = JSON.stringify({ ...change, read: change.read ?? {} });
        const answer = (await redis.eval(
          CHANGE,
          keys.length,
          ...keys,
          deadline,
          body,
          BOOK_RETENTION_MS,
        )) as string;
        const outcome = JSON.parse(answer) as { applied: boolean; view?: RawView };
        return outcome.applied ? viewOf(outcome.view ?? {}, change.read ?? {}) : null;
      }),
  };
}
