/**
 * @module
 * The writes that carry money held by Redis's replicas before the money moves (`redis.waitForReplicas`): after
 * such a write, `WAIT n timeout` asks the primary holding its key how many replicas acknowledged it. Replication
 * is asynchronous, so a write the primary answered may be missing from the replica a failover promotes; with
 * fewer replicas than asked, the write is treated as not durable and its request is refused (`store_unavailable`)
 * before any upstream order is placed under it.
 *
 * `WAIT` blocks the connection it is sent on, so it is sent on a connection of its own: while replicas lag, only
 * the money writes wait, never the reads and other writes of every request. That connection confirms another
 * connection's write by writing a marker of its own in the same slot (so a cluster sends it to the same primary)
 * after that write was answered: the replication stream is in order, so a replica that acknowledged the marker
 * holds the write.
 */
import type { Logger } from '../logger';
import { connectRedis } from './redis-connection';
import { RedisSettingError, type RedisTarget } from './redis-target';
import { StoreUnavailableError } from './store';

/** How many replicas must hold a money write, and how long the primary may wait for them. */
export interface ReplicaWait {
  /** Replicas that must acknowledge (Redis's `WAIT numreplicas`). */
  replicas: number;
  /** How long the primary waits for them before the write is refused as not durable. */
  timeoutMs: number;
}

/** Confirms writes on the replicas. */
export interface ReplicaConfirmation {
  /** Returns once `fullKey`'s writes so far are held by enough replicas; else throws {@link StoreUnavailableError}. */
  confirm(fullKey: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a marker lives: it only has to travel the replication stream once. */
const MARKER_TTL_MS = 10_000;

/**
 * A key under `keyPrefix` in the same cluster slot as `key` (Redis hashes only a key's `{hash tag}` when it has
 * one), or null for a key whose slot no marker can share (a `}` in a key without a tag).
 */
export function markerKeyFor(key: string, keyPrefix: string): string | null {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  if (close > open + 1) return `${keyPrefix}replicated-marker:{${key.slice(open + 1, close)}}`;
  return key.includes('}') ? null : `${keyPrefix}replicated-marker:{${key}}`;
}

/** A marker's value: not a number, so that a state export taking it for a counter passes it by. */
const MARKER_VALUE = 'replicated';

/** The confirmation of `target`'s writes, on a connection of its own. */
export function createReplicaConfirmation(options: {
  target: RedisTarget;
  wait: ReplicaWait;
  /** The store's key prefix: markers are written under it too (an ACL that names the prefix lets them in). */
  keyPrefix: string;
  /** The store's command timeout: the confirmation waits that much longer than `WAIT` itself. */
  commandTimeoutMs: number;
  connectWaitMs: number;
  logger?: Logger | undefined;
}): ReplicaConfirmation {
  const { wait, logger } = options;
  const connection = connectRedis({
    target: options.target,
    commandTimeoutMs: wait.timeoutMs + options.commandTimeoutMs,
    connectWaitMs: options.connectWaitMs,
    // The store's own connection tells of an outage; this one would only say it twice.
    logger: undefined,
  });
  let behindSince: number | null = null;

  return {
    async confirm(fullKey) {
      const marker = markerKeyFor(fullKey, options.keyPrefix);
      if (marker === null) throw new Error(`no marker shares the cluster slot of '${fullKey}'`);
      const acknowledged = await connection.run(async () => {
        const replies = await connection.redis
          .pipeline()
          .set(marker, MARKER_VALUE, 'PX', MARKER_TTL_MS)
          .wait(wait.replicas, wait.timeoutMs)
          .exec();
        const failed = replies?.find(([error]) => error !== null)?.[0];
        if (failed) throw failed;
        return Number(replies?.[1]?.[1] ?? 0);
      });
      if (acknowledged >= wait.replicas) {
        if (behindSince !== null) {
          logger?.info('Redis replicas hold the money writes again', {
            behindForMs: Date.now() - behindSince,
          });
          behindSince = null;
        }
        return;
      }
      if (behindSince === null) {
        behindSince = Date.now();
        logger?.error(
          'Redis replicas did not acknowledge a money write: such writes are refused until they do',
          {
            acknowledged,
            required: wait.replicas,
            timeoutMs: wait.timeoutMs,
          },
        );
      }
      throw new StoreUnavailableError(
        `a write was held by ${acknowledged} of the ${wait.replicas} Redis replicas required within ${wait.timeoutMs} ms: a failover could lose it`,
      );
    },
    close: () => connection.close(),
  };
}

/** `ESIM_BFF_REDIS_WAIT_REPLICAS`, `ESIM_BFF_REDIS_WAIT_TIMEOUT_MS`: set, they override the config's `redis.waitForReplicas`. */
const REPLICAS_VARIABLE = 'ESIM_BFF_REDIS_WAIT_REPLICAS';
const TIMEOUT_VARIABLE = 'ESIM_BFF_REDIS_WAIT_TIMEOUT_MS';

/** The wait when neither the config nor the environment names its timeout. */
export const DEFAULT_REPLICA_WAIT_TIMEOUT_MS = 250;

/**
 * The replica wait a process runs with: the config's (`configured`), each part overridden by its variable when set;
 * 0 replicas turns it off. Throws {@link RedisSettingError} naming a variable that is not a whole number in range.
 *
 * @example
 * replicaWaitFromEnvironment({ ESIM_BFF_REDIS_WAIT_REPLICAS: '1' }); // { replicas: 1, timeoutMs: 250 }
 */
export function replicaWaitFromEnvironment(
  env: NodeJS.ProcessEnv,
  configured?: ReplicaWait,
): ReplicaWait | undefined {
  const whole = (variable: string, min: number, max: number): number | undefined => {
    const text = env[variable];
    if (!text) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new RedisSettingError(`${variable}: '${text}' is not a whole number from ${min} to ${max}`);
    }
    return value;
  };
  const replicas = whole(REPLICAS_VARIABLE, 0, 16) ?? configured?.replicas ?? 0;
  const timeoutMs =
    whole(TIMEOUT_VARIABLE, 10, 5_000) ?? configured?.timeoutMs ?? DEFAULT_REPLICA_WAIT_TIMEOUT_MS;
  return replicas === 0 ? undefined : { replicas, timeoutMs };
}
