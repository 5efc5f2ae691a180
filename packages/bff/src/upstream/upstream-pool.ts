/**
 * @module
 * Keep-alive connection pools to the upstream, one per origin and TLS identity (client certificate, CA),
 * shared by every client (widget) that talks to that origin as that identity and closed when the last of
 * them lets go. A widget's client certificate is never presented on another widget's connections.
 */
import { Pool } from 'undici';
import { tlsIdentity, type UpstreamTls } from '../config/client-tls';

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
  /**
   * Let go of the pool; the last user closes it, after the requests under way — or, `abort`, at once, failing
   * them (a stop that waited long enough).
   */
  release(options?: { abort?: boolean }): Promise<void>;
}

/**
 * Borrow the keep-alive pool of `origin` (e.g. `https://api.example.com`) for the TLS identity `tls`
 * (a client certificate for mTLS, a private CA), creating it on first use. Options apply when the pool is
 * created; later borrowers share it as it is.
 */
export function acquireUpstreamPool(
  origin: string,
  options: UpstreamPoolOptions = DEFAULT_POOL_OPTIONS,
  tls?: UpstreamTls,
): UpstreamPoolLease {
  const poolKey = `${origin} ${tlsIdentity(tls)}`;
  let shared = pools.get(poolKey);
  if (!shared || shared.pool.closed || shared.pool.destroyed) {
    shared = {
      pool: new Pool(origin, {
        connections: options.connections,
        keepAliveTimeout: options.keepAliveTimeoutMs,
        maxResponseSize: options.maxResponseBytes,
        ...(tls ? { connect: { cert: tls.cert, key: tls.key, ca: tls.ca } } : {}),
      }),
      users: 0,
    };
    pools.set(poolKey, shared);
  }
  shared.users += 1;
  const lease = shared;
  let released = false;
  return {
    pool: lease.pool,
    async release(releaseOptions = {}) {
      if (released) return;
      released = true;
      lease.users -= 1;
      if (lease.users > 0) return;
      if (pools.get(poolKey) === lease) pools.delete(poolKey);
      if (releaseOptions.abort === true) await lease.pool.destroy();
      else await lease.pool.close();
    },
  };
}
