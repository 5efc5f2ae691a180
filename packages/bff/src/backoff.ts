/**
 * @module
 * The BFF's one backoff formula: the wait before the next try doubles from a first step to a cap. The upstream
 * client draws its retry wait uniformly below that ceiling ("full jitter", so clients do not retry in step);
 * order placement and webhook deliveries wait the ceiling itself (their next attempt is a due time in the store).
 */

/** A doubling backoff: `firstMs`, twice that, … at most `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/** The wait of step `step` (0-based; a negative step counts as 0): `firstMs * 2^step`, at most `maxMs`. */
export function backoffMs(step: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, step));
}

/** A uniform draw in `[0, backoffMs(step))`: "full jitter". */
export function jitteredBackoffMs(
  step: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * backoffMs(step, backoff));
}
