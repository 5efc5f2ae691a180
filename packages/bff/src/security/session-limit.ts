/**
 * @module
 * Sessions per client address (`limits.sessionsPerIpPerMinute`), counted in this instance's memory first and in
 * the store from an address's second session on: most travellers open one session a purchase, so a session
 * usually writes nothing to the store, while an address that opens more is counted across instances. Its first
 * session on each instance is counted in the store with its second there; with `n` instances an address gets at
 * most `n − 1` more than the limit in a minute (the first of each instance that saw no second), never more. An
 * address over the limit on this instance alone is refused from memory, with no store write.
 *
 * The memory is the starts' sketch (`start-limit.ts`): fixed per widget, the same cost per session however many
 * addresses open one, and a count never below the truth — one above it sends an address's first session to the
 * store, or refuses it, only once hundreds of thousands of addresses opened sessions on one instance in a minute.
 */

import type { Store } from '../store/store';
import { enforceLimit, type LimitSpec, rateLimited } from './rate-limit';
import { type StartingWidget, StartLimit } from './start-limit';

/** The sessions' counter of one app. */
export class SessionLimit {
  readonly #here: StartLimit;
  readonly #store: Store;

  constructor(options: { store: Store; now?: (() => number) | undefined }) {
    this.#store = options.store;
    // Addresses come already read from the request (`address` of `take`): no proxy hops to read here.
    this.#here = new StartLimit({ trustedProxyHops: 0, now: options.now });
  }

  /**
   * Count one session of `widget` from `address` (a limited address, kept in memory only), named in the store by
   * `countedAddress` (its keyed digest); `rate_limited` over `limits.sessionsPerIpPerMinute`.
   */
  async take(widget: StartingWidget, address: string, countedAddress: string): Promise<void> {
    const taken = this.#here.take(widget, address);
    const spec: LimitSpec = {
      name: `sessions:${widget.config.id}:${countedAddress}`,
      limit: taken.limit,
      windowMs: taken.windowMs,
    };
    if (!taken.allowed) throw rateLimited(spec, taken.resetInMs);
    if (taken.count === 1) return;
    // The second session here counts the first too; a counter the store keeps, across instances.
    await enforceLimit(this.#store, spec, taken.count === 2 ? 2 : 1);
  }
}
