/**
 * @module
 * The Redis that the BFF processes of a multi-instance suite share, of either kind a deployment runs: one server,
 * or a Redis Cluster of three primaries with a replica each. A suite runs once on each (`SHARED_REDIS_KINDS`),
 * its processes given the environment that names it.
 */
import { startRedisCluster, startRedisServer } from './bff-testing';

/** The kinds of shared Redis a multi-instance suite runs on, each named for the suite's title. */
export const SHARED_REDIS_KINDS = [
  { kind: 'server', name: 'one Redis' },
  { kind: 'cluster', name: 'a Redis Cluster' },
] as const;
export type SharedRedisKind = (typeof SHARED_REDIS_KINDS)[number]['kind'];

/** A running shared Redis: the variables that point a BFF process at it, and its stop. */
export interface SharedRedis {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Start a shared Redis of `kind`. */
export async function startSharedRedis(kind: SharedRedisKind): Promise<SharedRedis> {
  if (kind === 'cluster') {
    const cluster = await startRedisCluster();
    return { env: { ESIM_BFF_REDIS_CLUSTER_NODES: cluster.seeds }, stop: () => cluster.stop() };
  }
  const redis = await startRedisServer();
  return { env: { ESIM_BFF_REDIS_URL: redis.url }, stop: () => redis.stop() };
}
