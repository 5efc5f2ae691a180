/**
 * @module
 * Who an upstream call is made for: a traveller (a client address and, once known, a session) or a partner's
 * server, set by the route auth around the handler; no caller at all is background work (the watches,
 * reconciliation, catalog refreshes). The upstream budget reads it to charge the right share.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The requester behind the upstream calls made while a request is handled. */
export interface UpstreamCaller {
  /** `partner`: a partner's server (secret-authenticated); `traveller`: a browser session or widget start. */
  kind: 'traveller' | 'partner';
  /**
   * The address a per-address share counts, as counters name it (`countedAddress`: a keyed digest of its
   * `limitedAddress`), or null for a partner's server.
   */
  address: string | null;
  /** The session id, once the session is verified. */
  sessionId: string | null;
  /**
   * Set once the request's first upstream call was let through: its later calls (the order after the account
   * read) are counted but not refused by the caller's own shares, so that no sale stops halfway.
   */
  admitted: boolean;
}

const callers = new AsyncLocalStorage<UpstreamCaller>();

/** Run `work` (a request's handler) with `caller` as the caller of every upstream call it makes. */
export function runForUpstreamCaller<T>(
  caller: Omit<UpstreamCaller, 'admitted'>,
  work: () => Promise<T>,
): Promise<T> {
  return callers.run({ ...caller, admitted: false }, work);
}

/** The current upstream caller, or undefined in background work. */
export function currentUpstreamCaller(): UpstreamCaller | undefined {
  return callers.getStore();
}
