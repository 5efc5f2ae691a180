/**
 * @module
 * Rate limits and quotas on the store's fixed-window counters: sessions per client IP, requests per
 * session, quotes and checkouts per session, a partner's writes, and failure budgets (one wrong partner secret
 * per client IP). Over the limit is `rate_limited` with `Retry-After`.
 */
import { ApiError } from '../errors';
import { STORE_KEYS, type Store } from '../store/store';

export interface LimitSpec {
  /**
   * The counter's name (`sessions:acme:q3Jx…`). A client address in it is its keyed digest (`countedAddress` of
   * the request), never the address: a copy of the store names no client.
   */
  name: string;
  /** The most hits allowed in the window. */
  limit: number;
  windowMs: number;
}

/**
 * Count one hit (or `by`) and throw `rate_limited` (with `Retry-After` until the window ends) when it is over the
 * limit.
 *
 * @example
 * await enforceLimit(store, { name: `sessions:${widgetId}:${c.get('countedAddress')}`, limit: 30, windowMs: 60_000 });
 */
export async function enforceLimit(store: Store, spec: LimitSpec, by = 1): Promise<void> {
  const { count, resetInMs } = await store.increment(STORE_KEYS.counter(spec.name), by, spec.windowMs);
  if (count > spec.limit) throw rateLimited(spec, resetInMs);
}

/** The `rate_limited` refusal of `spec`, whose window ends in `resetInMs`. */
export function rateLimited(spec: LimitSpec, resetInMs: number): ApiError {
  return new ApiError('rate_limited', {
    params: { limit: spec.limit, windowSeconds: Math.round(spec.windowMs / 1000) },
    retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
  });
}
