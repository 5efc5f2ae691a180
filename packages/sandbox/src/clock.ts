/**
 * @module
 * The sandbox's one source of time: an injectable base clock plus an offset the control API can move,
 * so quote expiry and order progression are deterministic in tests and never need a timer.
 */

/** Returns the current time in epoch milliseconds. */
export type Clock = () => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();

/** A clock a test can set and advance by hand. */
export function createManualClock(startMs = Date.parse('2026-11-02T09:00:00Z')) {
  let now = startMs;
  const clock: Clock = () => now;
  return {
    clock,
    /** Moves time forward by `ms`. */
    advance(ms: number): void {
      now += ms;
    },
    /** Sets the time to an absolute instant. */
    set(ms: number): void {
      now = ms;
    },
  };
}

/** The base clock shifted by an offset that `/__sandbox/clock` can move forward. */
export class SandboxClock {
  #offsetMs = 0;
  readonly #base: Clock;

  constructor(base: Clock) {
    this.#base = base;
  }

  /** Epoch milliseconds now. */
  now(): number {
    return this.#base() + this.#offsetMs;
  }

  /** Shifts the sandbox's time forward (never backward: state only moves forward). */
  advance(ms: number): void {
    this.#offsetMs += Math.max(0, ms);
  }

  /** The offset from the base clock in milliseconds. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Drops the offset (used by a reset). */
  resetOffset(): void {
    this.#offsetMs = 0;
  }
}

/** An ISO 8601 UTC timestamp for epoch milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
