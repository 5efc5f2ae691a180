/**
 * @module
 * Sessions per client address (`limits.sessionsPerIpPerMinute`), counted in this instance's memory first and in
 * the store from an address's second session on: most travellers open one session a purchase, so a session
 * usually writes nothing to the store, while an address that opens more is counted across instances. Its first
 * session on each instance is counted in the store with its second there; with `n` instances an address gets at
 * most `n − 1` more than the limit in a minute (the first of each instance that saw no second), never more. An
 * address over the limit on this instance alone is refused from memory, with no store write.
 */
import type { Store } from '../store/store';
import { InstanceWindowCounter } from './instance-window-counter';
import { enforceLimit, type LimitSpec, rateLimited } from './rate-limit';

const WINDOW_MS = 60_000;

/** The sessions' counter of one app. */
export class SessionLimit {
  readonly #here: InstanceWindowCounter;
  readonly #store: Store;

  constructor(options: { store: Store; now?: (() => number) | undefined }) {
    this.#store = options.store;
    this.#here = new InstanceWindowCounter({ windowMs: WINDOW_MS, now: options.now });
  }

  /**
   * Count one session of `widgetId` from `countedAddress` (its keyed digest) within `limit` a minute;
   * `rate_limited` over it.
   */
  async take(widgetId: string, countedAddress: string, limit: number): Promise<void> {
    const spec: LimitSpec = { name: `sessions:${widgetId}:${countedAddress}`, limit, windowMs: WINDOW_MS };
    const { count, resetInMs } = this.#here.hit(spec.name);
    if (count > limit) throw rateLimited(spec, resetInMs);
    if (count === 1) return;
    // The second session here counts the first too; a counter the store keeps, across instances.
    await enforceLimit(this.#store, spec, count === 2 ? 2 : 1);
  }
}
