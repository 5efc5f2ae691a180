/**
 * @module
 * Rate limits and quotas on the store's fixed-window counters: sessions per client IP, requests per
 * session, quotes and checkouts per session, and failure budgets (wrong partner secrets per client IP) that are
 * looked at before the guarded secret is compared. Over the limit is `rate_limited` with `Retry-After`.
 */
import { ApiError } from '../errors';
import { STORE_KEYS, type Store } from '../store/store';

export interface LimitSpec {
  /** The counter's name (`sessions:acme:203.0.113.9`). */
  name: string;
  /** The most hits allowed in the window. */
  limit: number;
  windowMs: number;
}

/**
 * Count one hit and throw `rate_limited` (with `Retry-After` until the window ends) when it is over the limit.
 *
 * @example
 * await enforceLimit(store, { name: `sessions:${widgetId}:${ip}`, limit: 30, windowMs: 60_000 });
 */
export async function enforceLimit(store: Store, spec: LimitSpec): Promise<void> {
  const { count, resetInMs } = await store.increment(STORE_KEYS.counter(spec.name), 1, spec.windowMs);
  if (count > spec.limit) throw rateLimited(spec, resetInMs);
}

/**
 * Throw `rate_limited` when a failure budget is spent, without spending any of it: called *before* a secret is
 * compared, so that a caller over the budget learns nothing, not even from the right secret. Spend it with
 * {@link enforceLimit} once a comparison failed. Concurrent guesses that all look before any of them spends may
 * overshoot the budget by as many as are in flight at once; every later one is refused.
 *
 * @example
 * await assertBudgetLeft(store, spec); // 429 whatever is sent
 * if (!matches(secret)) { await enforceLimit(store, spec); throw unauthorized; }
 */
export async function assertBudgetLeft(store: Store, spec: LimitSpec): Promise<void> {
  const { count, resetInMs } = await store.increment(STORE_KEYS.counter(spec.name), 0, spec.windowMs);
  if (count >= spec.limit) throw rateLimited(spec, resetInMs);
}

function rateLimited(spec: LimitSpec, resetInMs: number): ApiError {
  return new ApiError('rate_limited', {
    params: { limit: spec.limit, windowSeconds: Math.round(spec.windowMs / 1000) },
    retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
  });
}
