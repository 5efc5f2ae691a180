/**
 * @module
 * The Redis connection behind the store, and how it behaves while Redis is away: an operation waits a short,
 * bounded time (for a connection being made, then for the answer) and fails with {@link StoreUnavailableError};
 * nothing is queued to run later. A write that reaches a paused Redis after its caller gave up is refused by
 * Redis itself, against a deadline in Redis's clock. An outage is logged once when it starts and once when it ends.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { type RedisClient, type RedisTarget, redisClient } from './redis-target';
import { tlsFailure } from './redis-tls-failure';
import { StoreUnavailableError } from './store';

export interface RedisConnectionOptions {
  /** The server, the Sentinels of the primary, or the nodes of a cluster (`redis-target.ts`). */
  target: RedisTarget;
  /** How long an operation waits for Redis's answer. */
  commandTimeoutMs: number;
  /** How long an operation waits for a connection that is being made (at start, or as Redis returns). */
  connectWaitMs: number;
  /** Where the start and the end of an outage are logged. */
  logger?: Logger | undefined;
}

/** One Redis connection with bounded waits. */
export interface RedisConnection {
  readonly redis: RedisClient;
  /**
   * Runs one operation. It receives the deadline (Redis's clock, ms; 0 when not known yet) after which a write
   * it sends must not apply; any sign that Redis is away becomes a {@link StoreUnavailableError}.
   */
  run<T>(operation: (writeDeadlineMs: number) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The reply of a fenced write that arrived after its deadline (see {@link WRITE_FENCE}). */
export const LATE_WRITE_REPLY = 'STALE';

/**
 * The start of every write script: `ARGV[1]` is the deadline in Redis's clock (ms, 0: none). A write that
 * arrives later (Redis was paused while its caller timed out and answered 503) must not apply after all.
 */
export const WRITE_FENCE = `
local deadline = tonumber(ARGV[1])
if deadline > 0 then
  local time = redis.call('TIME')
  if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > deadline then
    return redis.error_reply('${LATE_WRITE_REPLY} the write arrived after its caller gave up')
  end
end`;

/** Answers of a Redis that is there but cannot serve (loading, failing over, a busy script): unavailable too. */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\b/;

/** Statuses of a connection being made, worth a short wait; any other status but `ready` means Redis is away. */
const CONNECTING = new Set(['wait', 'connecting', 'connect']);

/** How often a cluster command is redirected or tried again before it is answered 503. */
const CLUSTER_RETRIES = 8;

const isReplyError = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'ReplyError';

/** Opens the connection (at once, in the background). */
export function connectRedis(options: RedisConnectionOptions): RedisConnection {
  const { target, commandTimeoutMs, connectWaitMs, logger } = options;
  /** The last failed TLS handshake, until a connection is ready. */
  let tlsFailed: Error | null = null;
  function heardError(error: unknown): void {
    const failure = tlsFailure(error, target);
    if (failure === null) return;
    if (tlsFailed === null) logger?.error('store unreachable over TLS', { cause: failure.message });
    tlsFailed = failure;
  }
  const redis = redisClient(
    target,
    {
      commandTimeout: commandTimeoutMs,
      connectTimeout: 1_000,
      // Fail at once while disconnected: a queued or re-sent command would run after its request was answered.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      // Attempts are cheap against a refused port; retrying often ends the outage within a second of Redis's return.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      // A primary demoted by a failover answers READONLY: connect again, to the new primary the Sentinels name
      // (or that a proxy or DNS name now points at). The command that failed is not sent again.
      reconnectOnError: (error) => error.message.startsWith('READONLY'),
    },
    {
      // A cluster follows MOVED and ASK itself; TRYAGAIN (a slot half migrated) and CLUSTERDOWN (a primary lost,
      // its replica not promoted yet) are tried again a few times within about one command's wait, then answered 503.
      enableOfflineQueue: false,
      maxRedirections: CLUSTER_RETRIES,
      retryDelayOnTryAgain: Math.max(10, Math.floor(commandTimeoutMs / CLUSTER_RETRIES)),
      retryDelayOnClusterDown: Math.max(10, Math.floor(commandTimeoutMs / CLUSTER_RETRIES)),
      // A command whose node went away is not sent elsewhere: it may have run there (503; the slots are read again).
      retryDelayOnFailover: 0,
      // A promoted replica is learnt within a second even without a MOVED pointing at it.
      slotsRefreshInterval: 1_000,
      slotsRefreshTimeout: commandTimeoutMs,
      clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    },
    (error) => heardError(error),
  );
  // Failures surface on the operations that fail; without a listener ioredis would print every reconnect. A
  // failed TLS handshake is kept, to name the setting and the cause where the client would say "closed".
  redis.on('error', (error) => heardError(error));

  let clockOffsetMs: number | null = null;
  let downSince: number | null = null;
  let closing = false;
  const waiters = new Set<(connected: boolean) => void>();

  /** Redis's clock minus ours, from one `TIME` whose round trip was short enough to trust. */
  async function measureClock(): Promise<void> {
    const sent = Date.now();
    const [seconds, micros] = await redis.time();
    const received = Date.now();
    if (received - sent > commandTimeoutMs / 4) return;
    clockOffsetMs = Number(seconds) * 1000 + Number(micros) / 1000 - (sent + received) / 2;
  }

  function wentDown(cause: unknown): void {
    if (downSince !== null || closing) return;
    downSince = Date.now();
    logger?.error('store unreachable: requests are refused with store_unavailable until Redis answers', {
      cause: cause instanceof Error ? cause.message : String(cause),
    });
  }

  function cameBack(): void {
    if (downSince === null) return;
    logger?.info('store reachable again', { downForMs: Date.now() - downSince });
    downSince = null;
  }

  function wake(connected: boolean): void {
    for (const waiter of waiters) waiter(connected);
    waiters.clear();
  }

  redis.on('ready', () => {
    tlsFailed = null;
    cameBack();
    wake(true);
    measureClock().catch(() => {});
  });
  redis.on('close', () => {
    wake(false);
    wentDown(new Error('the connection to Redis closed'));
  });

  async function connection(): Promise<void> {
    if (redis.status !== 'ready') {
      if (!CONNECTING.has(redis.status)) throw new Error(`the Redis connection is ${redis.status}`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(settle);
          reject(new Error(`no Redis connection within ${connectWaitMs} ms`));
        }, connectWaitMs);
        function settle(connected: boolean) {
          clearTimeout(timer);
          if (connected) resolve();
          else reject(new Error('the Redis connection failed'));
        }
        waiters.add(settle);
      });
    }
    // A cluster is ready once it knows its slots; it connects to each primary on that primary's first command,
    // and refuses commands meanwhile: wait (as briefly as for the cluster) for the primaries being connected.
    if ('nodes' in redis) await Promise.all(redis.nodes('master').map(primaryConnected));
  }

  /** Each primary being connected, and the wait for it that every operation meanwhile shares. */
  const connecting = new WeakMap<Redis, Promise<void>>();

  /** Resolves once `node` is connected, or gives up waiting (its commands then fail) when it is not being connected. */
  async function primaryConnected(node: Redis): Promise<void> {
    if (node.status === 'wait') node.connect().catch(() => {});
    if (!CONNECTING.has(node.status)) return;
    let wait = connecting.get(node);
    if (wait === undefined) {
      wait = new Promise<void>((resolve) => {
        const timer = setTimeout(settle, connectWaitMs);
        function settle() {
          clearTimeout(timer);
          node.off('ready', settle);
          node.off('close', settle);
          connecting.delete(node);
          resolve();
        }
        node.once('ready', settle);
        node.once('close', settle);
      });
      connecting.set(node, wait);
    }
    await wait;
  }

  return {
    redis,
    async run(operation) {
      try {
        await connection();
        // A write may start this long after it is sent; later, its caller has given up (or soon will).
        const deadline =
          clockOffsetMs === null ? 0 : Math.floor(Date.now() + clockOffsetMs + commandTimeoutMs / 2);
        const result = await operation(deadline);
        cameBack();
        return result;
      } catch (error) {
        if (isReplyError(error) && error.message.startsWith(LATE_WRITE_REPLY)) {
          // Refused on time: the clocks drifted apart since the last measurement, not an outage.
          measureClock().catch(() => {});
          throw new StoreUnavailableError('Redis refused a write as late: its clock moved', { cause: error });
        }
        if (isReplyError(error) && !UNAVAILABLE_REPLY.test(error.message)) throw error;
        // A cluster node lost or a slot in flux: read the slots again, so the next operation finds its primary.
        if ('refreshSlotsCache' in redis) redis.refreshSlotsCache();
        wentDown(tlsFailed ?? error);
        throw new StoreUnavailableError('Redis is unreachable or did not answer in time', {
          cause: tlsFailed ?? error,
        });
      }
    },
    async close() {
      closing = true;
      wake(false);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
