/**
 * @module
 * Which store a BFF process keeps its state in, from its environment: Redis when `ESIM_BFF_REDIS_URL`,
 * `ESIM_BFF_REDIS_SENTINELS` or `ESIM_BFF_REDIS_CLUSTER_NODES` is set (several instances; `redis-target.ts`), else the embedded store in `ESIM_BFF_DATA_DIR` (default `data/` in the working
 * directory; one instance). The memory store is never chosen here: it loses everything on a restart.
 */
import type { Logger } from '../logger';
import { type ReplicaWait, replicaWaitFromEnvironment } from './redis-replica-wait';
import { createRedisStore } from './redis-store';
import { describeRedisTarget, type RedisTarget, redisTargetFromEnvironment } from './redis-target';
import { openSqliteStore, type SqliteStore } from './sqlite-store';
import type { Store } from './store';

/** The data directory when `ESIM_BFF_DATA_DIR` is unset or empty. */
export const DEFAULT_DATA_DIR = 'data';

/** The store a process runs on, and how to say where its state lives. */
export type ChosenStore =
  | { kind: 'redis'; store: Store; target: RedisTarget }
  | { kind: 'embedded'; store: SqliteStore; dataDir: string };

/**
 * Open the store the environment asks for; on Redis, money writes wait for the replicas `waitForReplicas` asks
 * (the config's, which the environment overrides). Throws when the data directory cannot be used (the message says why).
 */
export function openStoreFromEnvironment(
  env: NodeJS.ProcessEnv,
  logger?: Logger,
  waitForReplicas?: ReplicaWait,
): ChosenStore {
  const target = redisTargetFromEnvironment(env);
  if (target !== null) {
    const wait = replicaWaitFromEnvironment(env, waitForReplicas);
    return { kind: 'redis', store: createRedisStore({ target, logger, waitForReplicas: wait }), target };
  }
  const store = openSqliteStore({ dataDir: env.ESIM_BFF_DATA_DIR || DEFAULT_DATA_DIR, logger });
  return { kind: 'embedded', store, dataDir: store.dataDir };
}

/** Where the state lives, for a log line (never the Redis URL's password). */
export function describeStore(chosen: ChosenStore): Record<string, string> {
  if (chosen.kind === 'embedded') {
    return { store: 'embedded', dataDir: chosen.dataDir, engine: chosen.store.engine };
  }
  return { store: 'redis', redis: describeRedisTarget(chosen.target) };
}
