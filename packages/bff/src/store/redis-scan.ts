/**
 * @module
 * `SCAN` over every key of the store, wherever it lives: one server's keyspace, or each primary's of a cluster in
 * turn (a cluster spreads keys over its primaries, and `SCAN` walks only the node it is sent to). The cursor says
 * which primary and where in it; the primaries are taken in the order of their addresses, so a cursor still means
 * the same after the client read the cluster again. Like `SCAN`, a key may be answered twice, never left out
 * while it exists throughout.
 */
import type { Cluster } from 'ioredis';
import type { RedisClient } from './redis-target';

/** One page of keys, and the cursor of the next (null: done). */
export interface KeyPage {
  keys: string[];
  cursor: string | null;
}

/** The cluster's primaries in the order of their addresses. */
function primaries(cluster: Cluster) {
  const address = (node: { options: { host?: string | undefined; port?: number | undefined } }) =>
    `${node.options.host}:${node.options.port}`;
  return cluster
    .nodes('master')
    .sort((a, b) => (address(a) < address(b) ? -1 : address(a) > address(b) ? 1 : 0));
}

/**
 * The next page of keys matching `pattern` (a `SCAN MATCH` pattern) after `cursor` (null: the first page). A page
 * may be empty while more follow. A cluster's cursor is `<primary>:<cursor in it>`.
 */
export async function scanKeyspace(
  redis: RedisClient,
  pattern: string,
  cursor: string | null,
  count: number,
): Promise<KeyPage> {
  if (!('nodes' in redis)) {
    const [next, keys] = await redis.scan(cursor ?? '0', 'MATCH', pattern, 'COUNT', count);
    return { keys, cursor: next === '0' ? null : next };
  }
  const [nodeText, nodeCursor] = (cursor ?? '0:0').split(':');
  const nodeIndex = Number(nodeText);
  const nodes = primaries(redis);
  if (!Number.isInteger(nodeIndex) || nodeCursor === undefined)
    throw new Error(`'${cursor}' is not a key cursor`);
  const node = nodes[nodeIndex];
  if (node === undefined) {
    if (nodes.length === 0) throw new Error('the Redis Cluster has no primary this client knows of yet');
    return { keys: [], cursor: null };
  }
  const [next, keys] = await node.scan(nodeCursor, 'MATCH', pattern, 'COUNT', count);
  if (next !== '0') return { keys, cursor: `${nodeIndex}:${next}` };
  return { keys, cursor: nodeIndex + 1 < nodes.length ? `${nodeIndex + 1}:0` : null };
}

/** Resolves once `redis` can take commands (a cluster: once it knows its slots), or rejects after `waitMs`. */
export async function whenReady(redis: RedisClient, waitMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      reject(new Error(`Redis was not ready within ${waitMs} ms`));
    }, waitMs);
    function ready() {
      clearTimeout(timer);
      resolve();
    }
    redis.once('ready', ready);
  });
}
