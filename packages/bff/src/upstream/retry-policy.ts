/**
 * @module
 * When and how long the upstream client waits before trying again: exponential backoff with full
 * jitter, `Retry-After` honoured up to a cap, a short pause for an idempotent create still in flight.
 */
import { jitteredBackoffMs } from '../backoff';

/** How the upstream client retries. Only reads and creates that carry an `Idempotency-Key` are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `maxRetries + 1` attempts at most). */
  maxRetries: number;
  /** The backoff's first ceiling; it doubles per retry. */
  baseDelayMs: number;
  /** The backoff's largest ceiling. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the call fails at once with the hint. */
  maxRetryAfterMs: number;
  /** The pause before asking again about an idempotent create the upstream still processes. */
  inFlightDelayMs: number;
}

/** The defaults: three attempts within about a second or two, `Retry-After` up to 5 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 150,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 5_000,
  inFlightDelayMs: 250,
};

/**
 * The wait before retry number `retry` (0-based): "full jitter", a uniform draw in
 * `[0, min(maxDelayMs, baseDelayMs * 2^retry)]`, so that many clients do not retry in step.
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  return jitteredBackoffMs(retry, { firstMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, random);
}

/**
 * A `Retry-After` header as milliseconds from now: delta-seconds or an HTTP date. Undefined when the
 * header is missing or unreadable; never negative.
 */
export function parseRetryAfterMs(
  header: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday (`Sun, 22 Nov 2026 10:00:05 GMT`); `-1` or `2` are not dates.
  const date = /^[A-Za-z]{3},/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A promise that settles after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
