/**
 * @module
 * Fixed-window counters kept in this instance's memory, for a ceiling that must cost nothing once it is reached:
 * no store write, no round trip. Each instance counts its own share, so with `n` instances a client gets at most
 * `n` times the limit — a ceiling against a flood, not a budget to the request. The windows are the wall clock's
 * (a minute starts at :00), so no timer runs; the map is bounded, and a full map forgets its ended windows first,
 * then its oldest.
 */

/** The most names one counter holds: a flood from ever new addresses costs at most this much memory. */
const MAX_NAMES = 10_000;

/** One name's window: its number and the hits counted in it. */
interface Window {
  window: number;
  count: number;
}

export class InstanceWindowCounter {
  readonly #windows = new Map<string, Window>();
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: { windowMs: number; now?: (() => number) | undefined }) {
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Count one hit of `name`; answers the hits of its window so far, this one included, and the milliseconds
   * until the window ends.
   *
   * @example
   * const failures = new InstanceWindowCounter({ windowMs: 60_000 });
   * failures.hit('203.0.113.9'); // { count: 1, resetInMs: 41_200 }
   */
  hit(name: string): { count: number; resetInMs: number } {
    const now = this.#now();
    const window = Math.floor(now / this.#windowMs);
    const resetInMs = (window + 1) * this.#windowMs - now;
    const current = this.#windows.get(name);
    if (current !== undefined && current.window === window) {
      current.count += 1;
      return { count: current.count, resetInMs };
    }
    this.#windows.delete(name);
    if (this.#windows.size >= MAX_NAMES) this.#forget(window);
    this.#windows.set(name, { window, count: 1 });
    return { count: 1, resetInMs };
  }

  /**
   * Makes room, at the front of the map: a name enters it (again) when its window begins, so the map is in the
   * order windows began and the names of ended windows come first. They go; when none had ended, the oldest
   * name goes. Never a walk over the whole map: a flood from ever new addresses costs each request the same.
   */
  #forget(window: number): void {
    for (const [name, counted] of this.#windows) {
      if (counted.window === window && this.#windows.size < MAX_NAMES) return;
      this.#windows.delete(name);
      if (counted.window === window) return;
    }
  }
}
