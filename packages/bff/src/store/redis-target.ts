/**
 * @module
 * Which Redis the store talks to, from the process's environment: one server by URL (`ESIM_BFF_REDIS_URL`, a
 * primary, or a proxy that always points at the primary), or the primary a set of Sentinels names
 * (`ESIM_BFF_REDIS_SENTINELS` with `ESIM_BFF_REDIS_MASTER_NAME`), which ioredis asks again after a failover.
 * The Sentinel settings take the password, database and TLS of the primary from their own variables, since a URL
 * cannot name several hosts. A Redis Cluster (`ESIM_BFF_REDIS_CLUSTER_NODES`: Valkey Cluster, ElastiCache or
 * Memorystore in cluster mode) takes the same password, user and TLS variables, and has no database numbers; behind
 * NAT, `ESIM_BFF_REDIS_CLUSTER_NAT_MAP` says where to reach each address the nodes announce.
 */
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { TlsNodeConnector, tlsNodeConnector } from './redis-tls-connector';

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

/** A Redis Cluster, found from any of its nodes (the client learns the others and the slots from them). */
export interface RedisClusterTarget {
  kind: 'cluster';
  /** Some of the cluster's nodes (a configuration endpoint, or a few primaries): any one that answers will do. */
  nodes: Array<{ host: string; port: number }>;
  password?: string | undefined;
  username?: string | undefined;
  /** TLS to every node (ElastiCache and Memorystore with in-transit encryption). */
  tls: boolean;
  /**
   * Where to reach the addresses the nodes announce (`host:port` as `CLUSTER SLOTS` names it, an IPv6 host
   * without brackets) when they cannot be reached as announced: a cluster behind NAT or port forwarding.
   */
  natMap?: Record<string, { host: string; port: number }> | undefined;
}

export type RedisTarget = RedisUrlTarget | RedisSentinelTarget | RedisClusterTarget;

/** A client of any target: one server (or the primary of Sentinels), or a cluster. */
export type RedisClient = Redis | Cluster;

/** The variables that each name where the state is, of which at most one may be set. */
const TARGET_VARIABLES = [
  'ESIM_BFF_REDIS_URL',
  'ESIM_BFF_REDIS_SENTINELS',
  'ESIM_BFF_REDIS_CLUSTER_NODES',
] as const;

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
  const clusterNodes = env.ESIM_BFF_REDIS_CLUSTER_NODES;
  const set = TARGET_VARIABLES.filter((variable) => env[variable]);
  if (set.length > 1) {
    throw new RedisSettingError(
      `${set.join(' and ')} are ${set.length === 2 ? 'both' : 'all'} set: set the URL for one Redis, the Sentinels for a primary they watch, ` +
        'or the cluster nodes for a Redis Cluster — one of them',
    );
  }
  if (env.ESIM_BFF_REDIS_CLUSTER_NAT_MAP && !clusterNodes) {
    throw new RedisSettingError(
      'ESIM_BFF_REDIS_CLUSTER_NAT_MAP is set without ESIM_BFF_REDIS_CLUSTER_NODES: it maps the addresses a ' +
        "Redis Cluster's nodes announce, and applies to a cluster only",
    );
  }
  if (url) return { kind: 'url', url };
  if (clusterNodes) {
    if (env.ESIM_BFF_REDIS_DB && env.ESIM_BFF_REDIS_DB !== '0') {
      throw new RedisSettingError(
        `ESIM_BFF_REDIS_DB: '${env.ESIM_BFF_REDIS_DB}' is set with ESIM_BFF_REDIS_CLUSTER_NODES: a Redis Cluster has only database 0`,
      );
    }
    const natMap = env.ESIM_BFF_REDIS_CLUSTER_NAT_MAP;
    return {
      kind: 'cluster',
      nodes: clusterNodes.split(',').map((entry) => hostAndPort(entry, 'ESIM_BFF_REDIS_CLUSTER_NODES')),
      password: env.ESIM_BFF_REDIS_PASSWORD || undefined,
      username: env.ESIM_BFF_REDIS_USERNAME || undefined,
      tls: tlsSetting(env),
      ...(natMap ? { natMap: natMapSetting(natMap) } : {}),
    };
  }
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
  return {
    kind: 'sentinel',
    sentinels: sentinels.split(',').map((entry) => hostAndPort(entry, 'ESIM_BFF_REDIS_SENTINELS')),
    masterName,
    password: env.ESIM_BFF_REDIS_PASSWORD || undefined,
    username: env.ESIM_BFF_REDIS_USERNAME || undefined,
    sentinelPassword: env.ESIM_BFF_REDIS_SENTINEL_PASSWORD || undefined,
    db,
    tls: tlsSetting(env),
  };
}

const NAT_MAP = 'ESIM_BFF_REDIS_CLUSTER_NAT_MAP';

/**
 * `ESIM_BFF_REDIS_CLUSTER_NAT_MAP`: `announced=reachable` pairs of `host:port`, comma-separated; an announced
 * address named twice is refused, as ioredis would silently keep one of them.
 */
function natMapSetting(value: string): Record<string, { host: string; port: number }> {
  const natMap: Record<string, { host: string; port: number }> = {};
  for (const entry of value.split(',')) {
    const [announced, reachable, ...rest] = entry.split('=');
    if (announced === undefined || reachable === undefined || rest.length > 0) {
      throw new RedisSettingError(
        `${NAT_MAP}: '${entry.trim()}' is not announced=reachable (e.g. 10.0.0.5:6379=203.0.113.5:7000)`,
      );
    }
    const from = hostAndPort(announced, NAT_MAP);
    // ioredis looks an announced address up as `host:port`, an IPv6 host without brackets.
    const key = `${from.host}:${from.port}`;
    if (key in natMap) throw new RedisSettingError(`${NAT_MAP}: '${announced.trim()}' is mapped twice`);
    natMap[key] = hostAndPort(reachable, NAT_MAP);
  }
  return natMap;
}

/** `ESIM_BFF_REDIS_TLS`: true or false (the default). */
function tlsSetting(env: NodeJS.ProcessEnv): boolean {
  const tls = env.ESIM_BFF_REDIS_TLS || 'false';
  if (tls !== 'true' && tls !== 'false') {
    throw new RedisSettingError(`ESIM_BFF_REDIS_TLS: '${tls}' is neither true nor false`);
  }
  return tls === 'true';
}

/**
 * An ioredis client of `target`, with `settings` (waits, retries) on top of what reaching it takes;
 * `onSocketError` hears the errors of a cluster's TLS sockets (a failed handshake, which the client reports as a
 * closed connection; one server's client reports it itself).
 *
 * @example
 * const redis = redisClient({ kind: 'url', url: 'redis://127.0.0.1:6379' }, { maxRetriesPerRequest: 1 });
 */
export function redisClient(
  target: RedisTarget,
  settings: RedisOptions,
  cluster: ClusterOptions = {},
  onSocketError?: (error: Error) => void,
): RedisClient {
  if (target.kind === 'url') return new Redis(target.url, settings);
  if (target.kind === 'cluster') return redisClusterClient(target, settings, cluster, onSocketError);
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

/**
 * A cluster client: `settings` apply to each node's connection; commands go to primaries only (a replica may lag,
 * and the store's compare-and-set must read what it writes). `MOVED` and `ASK` are followed, `TRYAGAIN` (a slot
 * being migrated) and `CLUSTERDOWN` are tried again a few times, briefly, by the client (`cluster` says how); a
 * lost node is not waited for, the caller answers 503.
 */
function redisClusterClient(
  target: RedisClusterTarget,
  settings: RedisOptions,
  cluster: ClusterOptions,
  onSocketError: ((error: Error) => void) | undefined,
): Cluster {
  return new Cluster(target.nodes, {
    scaleReads: 'master',
    enableOfflineQueue: settings.enableOfflineQueue ?? true,
    lazyConnect: settings.lazyConnect ?? false,
    ...cluster,
    ...(target.natMap === undefined ? {} : { natMap: target.natMap }),
    redisOptions: {
      ...settings,
      password: target.password,
      username: target.username,
      // A TLS endpoint is a DNS name its certificate names: connect by that name, not the address it resolves to.
      ...(target.tls
        ? {
            tls: {},
            Connector: onSocketError === undefined ? TlsNodeConnector : tlsNodeConnector(onSocketError),
          }
        : {}),
    },
    ...(target.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  });
}

/** `host:port`, an IPv6 host in brackets. */
const hostPort = ({ host, port }: { host: string; port: number }) =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Where the state lives, for a log line: never a password. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'sentinel') {
    const hosts = target.sentinels.map(hostPort);
    return `sentinel://${hosts.join(',')}/${target.masterName}/${target.db}${target.tls ? ' (TLS)' : ''}`;
  }
  if (target.kind === 'cluster') {
    const mapped = Object.keys(target.natMap ?? {}).length;
    return `cluster://${target.nodes.map(hostPort).join(',')}${target.tls ? ' (TLS)' : ''}${mapped > 0 ? ` (NAT map: ${mapped} addresses)` : ''}`;
  }
  const url = new URL(target.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
