/**
 * @module
 * Which Redis the store talks to, from the process's environment: one server by URL (`ESIM_BFF_REDIS_URL`, a
 * primary, or a proxy that always points at the primary), or the primary a set of Sentinels names
 * (`ESIM_BFF_REDIS_SENTINELS` with `ESIM_BFF_REDIS_MASTER_NAME`), which ioredis asks again after a failover.
 * The Sentinel settings take the password, database and TLS of the primary from their own variables, since a URL
 * cannot name several hosts.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** A Redis reached by one URL: `redis://[:password@]host:port[/db]`, `rediss://` for TLS. */
export interface RedisUrlTarget {
  kind: 'url';
  url: string;
}

/** The primary of a Sentinel deployment. */
export interface RedisSentinelTarget {
  kind: 'sentinel';
  sentinels: Array<{ host: string; port: number }>;
  /** The name the Sentinels monitor the primary under (`sentinel monitor <name> …`). */
  masterName: string;
  /** The primary's and replicas' password (`requirepass`), and the user when ACLs name one. */
  password?: string | undefined;
  username?: string | undefined;
  /** The Sentinels' own password (`requirepass` in sentinel.conf), when they have one. */
  sentinelPassword?: string | undefined;
  db: number;
  /** TLS to the Sentinels and to the primary. */
  tls: boolean;
}

export type RedisTarget = RedisUrlTarget | RedisSentinelTarget;

/** What a wrong Redis setting in the environment says. */
export class RedisSettingError extends Error {}

/** `host:port` (an IPv6 host in brackets), or a setting error naming `variable`. */
function hostAndPort(entry: string, variable: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(entry.trim());
  const port = Number(match?.[3]);
  if (match === null || port < 1 || port > 65_535) {
    throw new RedisSettingError(`${variable}: '${entry.trim()}' is not host:port (e.g. 10.0.0.5:26379)`);
  }
  return { host: (match[1] ?? match[2]) as string, port };
}

/**
 * The Redis the environment names, or null for none (the embedded store). Throws {@link RedisSettingError}, naming
 * the variable, for a setting that cannot work: both a URL and Sentinels, Sentinels without a master name, a
 * malformed address or database.
 *
 * @example
 * redisTargetFromEnvironment({ ESIM_BFF_REDIS_SENTINELS: '10.0.0.5:26379,10.0.0.6:26379', ESIM_BFF_REDIS_MASTER_NAME: 'esim' });
 * // { kind: 'sentinel', sentinels: [{ host: '10.0.0.5', port: 26379 }, …], masterName: 'esim', db: 0, tls: false }
 */
export function redisTargetFromEnvironment(env: NodeJS.ProcessEnv): RedisTarget | null {
  const url = env.ESIM_BFF_REDIS_URL;
  const sentinels = env.ESIM_BFF_REDIS_SENTINELS;
  if (url && sentinels) {
    throw new RedisSettingError(
      'ESIM_BFF_REDIS_URL and ESIM_BFF_REDIS_SENTINELS are both set: set the URL for one Redis, the Sentinels for a primary they watch',
    );
  }
  if (url) return { kind: 'url', url };
  if (!sentinels) return null;
  const masterName = env.ESIM_BFF_REDIS_MASTER_NAME;
  if (!masterName) {
    throw new RedisSettingError(
      'ESIM_BFF_REDIS_SENTINELS is set without ESIM_BFF_REDIS_MASTER_NAME, the name the Sentinels monitor the primary under',
    );
  }
  const db = Number(env.ESIM_BFF_REDIS_DB ?? '0');
  if (!Number.isInteger(db) || db < 0) {
    throw new RedisSettingError(`ESIM_BFF_REDIS_DB: '${env.ESIM_BFF_REDIS_DB}' is not a database number`);
  }
  const tls = env.ESIM_BFF_REDIS_TLS ?? 'false';
  if (tls !== 'true' && tls !== 'false') {
    throw new RedisSettingError(`ESIM_BFF_REDIS_TLS: '${tls}' is neither true nor false`);
  }
  return {
    kind: 'sentinel',
    sentinels: sentinels.split(',').map((entry) => hostAndPort(entry, 'ESIM_BFF_REDIS_SENTINELS')),
    masterName,
    password: env.ESIM_BFF_REDIS_PASSWORD || undefined,
    username: env.ESIM_BFF_REDIS_USERNAME || undefined,
    sentinelPassword: env.ESIM_BFF_REDIS_SENTINEL_PASSWORD || undefined,
    db,
    tls: tls === 'true',
  };
}

/**
 * An ioredis client of `target`, with `settings` (waits, retries) on top of what reaching it takes.
 *
 * @example
 * const redis = redisClient({ kind: 'url', url: 'redis://127.0.0.1:6379' }, { maxRetriesPerRequest: 1 });
 */
export function redisClient(target: RedisTarget, settings: RedisOptions): Redis {
  if (target.kind === 'url') return new Redis(target.url, settings);
  return new Redis({
    ...settings,
    sentinels: target.sentinels,
    name: target.masterName,
    password: target.password,
    username: target.username,
    sentinelPassword: target.sentinelPassword,
    db: target.db,
    ...(target.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
    // Told of a failover by the Sentinels' `+switch-master` at once, not at the next command that fails.
    failoverDetector: true,
  });
}

/** Where the state lives, for a log line: never a password. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'sentinel') {
    const hosts = target.sentinels.map(
      ({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`,
    );
    return `sentinel://${hosts.join(',')}/${target.masterName}/${target.db}${target.tls ? ' (TLS)' : ''}`;
  }
  const url = new URL(target.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
