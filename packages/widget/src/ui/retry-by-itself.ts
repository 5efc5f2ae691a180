/**
 * @module
 * When an error's notice tries again by itself, its button staying for a traveller who would rather not wait:
 * a few seconds after a `moment`, once the browser is back online after a lost `connection`, and after a
 * `passing` failure (the upstream briefly down, a rate limit) when the BFF's `Retry-After` says (a few seconds
 * without one), at most {@link PASSING_RETRIES} times in a row. What to retry is `retryWorth`'s answer
 * (`api/api-error.ts`).
 *
 * A passing failure is retried only where the step hands over its count of failures in a row (the notice's
 * `failures`), and each step that does hands over a retry that is safe to repeat without the traveller:
 * - reads (the widget's start, destinations, plans, "my eSIM", its installation data) are reads;
 * - the checkout (the buy button) carries the key `checkout-<quoteId>` and sends a create whose outcome is not
 *   known again as it was, under its session, even after a reload (`steps/pending-create.ts`): the BFF keeps no
 *   "try again" answer under a key, and a repeat resumes the same checkout (same id, same hold), whose upstream
 *   order carries a key derived from that id, so no repeat buys twice;
 * - a delivery link carries one key for the life of its section: a repeat answers the same link;
 * - a quote holds a price and moves no money: the BFF answers a live quote of the same offer in the session
 *   again, and at most three repeats count against the session's quote quota.
 * The order's progress checks its status again by itself (its own backoff) and hands over no count.
 */
import { useEffect, useRef } from 'preact/hooks';
import { retryWorth, WidgetApiError } from '../api/api-error';

/** How long the notice of a `moment` error waits before it tries again by itself. */
const MOMENT_RETRY_MS = 5000;

/** At most this many tries by itself in a row after passing failures; then the button waits for the traveller. */
export const PASSING_RETRIES = 3;

/** The pauses before those tries when the BFF named no `Retry-After`. */
const PASSING_DELAYS_MS: readonly number[] = [5000, 10_000, 20_000];

/** A `Retry-After` is waited for within these bounds, in seconds: no hammering, no traveller left staring. */
const RETRY_AFTER_BOUNDS_S = { min: 2, max: 30 } as const;

/**
 * The pause before the try by itself that follows the `failures`-th failure in a row of a step's request (this
 * one included), in ms; null when it has tried {@link PASSING_RETRIES} times already.
 */
export function passingRetryDelayMs(retryAfterSeconds: number | null, failures: number): number | null {
  if (failures < 1 || failures > PASSING_RETRIES) return null;
  if (retryAfterSeconds === null) return PASSING_DELAYS_MS[failures - 1] ?? null;
  const { min, max } = RETRY_AFTER_BOUNDS_S;
  return Math.min(max, Math.max(min, retryAfterSeconds)) * 1000;
}

/**
 * Tries `retry` again by itself where `error` calls for it; `retry` undefined when the way forward is not a
 * retry (then never). `failures`: the step's failures in a row, this one included; a passing failure is
 * retried only when it is given. Answers the pause before a passing failure's try, in ms, for the notice to
 * say; null when none is coming.
 */
export function useRetryByItself(
  error: unknown,
  retry: (() => void) | undefined,
  failures: number | undefined,
): number | null {
  const worth = retryWorth(error);
  const pause =
    worth === 'passing' && retry && failures !== undefined && error instanceof WidgetApiError
      ? passingRetryDelayMs(error.retryAfterSeconds, failures)
      : null;
  // The step's retry may be a new function on every render (the buy button's): the wait keeps running.
  const latest = useRef(retry);
  latest.current = retry;
  const offered = retry !== undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies(error): each new failure starts its own wait
  useEffect(() => {
    if (!offered) return;
    const again = () => latest.current?.();
    // The client already repeated a `moment` for a while (its Retry-After waits): once more, shortly.
    const delay = worth === 'moment' ? MOMENT_RETRY_MS : pause;
    if (delay !== null) {
      const timer = setTimeout(again, delay);
      return () => clearTimeout(timer);
    }
    if (worth !== 'connection') return;
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [error, worth, pause, offered]);

  return pause;
}
