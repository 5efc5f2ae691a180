/**
 * @module
 * Keep-alive connection pools to the upstream, one per origin, shared by every client (widget) that
 * talks to that origin and closed when the last of them lets go.
 */
import { Pool } from 'undici';

/** Tuning of the shared pools. */
export interface UpstreamPoolOptions {
  /** Most sockets open to one origin at once. */
  connections: number;
  /** How long an idle socket is kept for reuse (the server's `Keep-Alive: timeout` wins when shorter). */
  keepAliveTimeoutMs: number;
  /** A response body larger than this is refused (a broken or hostile upstream cannot exhaust memory). */
  maxResponseBytes: number;
}

/** The defaults for production use. */
export const DEFAULT_POOL_OPTIONS: UpstreamPoolOptions = {
  connections: 64,
  keepAliveTimeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
};

interface SharedPool {
  pool: Pool;
  users: number;
}

const pools = new Map<string, SharedPool>();

/** A lease on the shared pool of one origin; `release` once, when the client closes. */
export interface UpstreamPoolLease {
  readonly pool: Pool;
  release(): Promise<void>;
}

/**
 * Borrow the keep-alive pool of `origin` (e.g. `https://api.example.com`), creating it on first use.
 * Options apply when the pool is created; later borrowers share it as it is.
 */
export function acquireUpstreamPool(
  origin: string,
  options: UpstreamPoolOptions = DEFAULT_POOL_OPTIONS,
): UpstreamPoolLease {
  let shared = pools.get(origin);
  if (!shared || shared.pool.closed || shared.pool.destroyed) {
    shared = {
      pool: new Pool(origin, {
        connections: options.connections,
        keepAliveTimeout: options.keepAliveTimeoutMs,
        maxResponseSize: options.maxResponseBytes,
      }),
      users: 0,
    };
    pools.set(origin, shared);
  }
  shared.users += 1;
  const lease = shared;
  let released = false;
  return {
    pool: lease.pool,
    async release() {
      if (released) return;
      released = true;
      lease.users -= 1;
      if (lease.users > 0) return;
      if (pools.get(origin) === lease) pools.delete(origin);
      await lease.pool.close();
    },
  };
}
