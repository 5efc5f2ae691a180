/**
 * @module
 * A limit counted in the store across instances, spent from this instance's memory: an instance reserves a block
 * of a name's hits in the store's counter at once and hands them out without a write, so that a session's reads
 * cost one store write per block instead of one each. The store's count is of hits reserved, never fewer than
 * those taken, so all instances together never let more than the limit through in a window; a block an instance
 * reserved and did not spend is lost to the others (a session spread over `n` instances may be refused up to
 * `n − 1` blocks short of its limit). Once the store says the window is spent, the instance refuses from memory
 * until it ends: a flood over the limit writes nothing more.
 */
import { STORE_KEYS, type Store } from '../store/store';
import { type LimitSpec, rateLimited } from './rate-limit';

/** The most names one instance holds: a forgotten name loses what it held (reserved again when it returns). */
const MAX_NAMES = 10_000;
/** A block is this share of the limit: at most this many store writes per name and window per instance. */
const BLOCKS_PER_WINDOW = 20;

/** What this instance holds of one name's window. */
interface Held {
  /** Hits reserved and not spent yet. */
  left: number;
  /** When the store's window ends (this instance's clock). */
  until: number;
  /** The store said the window's limit is spent: refused until `until`. */
  spent: boolean;
}

export class ReservedLimit {
  readonly #held = new Map<string, Held>();
  readonly #store: Store;
  readonly #now: () => number;

  constructor(options: { store: Store; now?: (() => number) | undefined }) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
  }

  /**
   * One hit of `spec.name` from what this instance holds, without waiting: true when taken, false when it holds
   * none (then {@link take} reserves more, or refuses).
   */
  takeHeld(name: string): boolean {
    const held = this.#held.get(name);
    if (held === undefined || held.spent || held.left === 0 || held.until <= this.#now()) return false;
    held.left -= 1;
    return true;
  }

  /** One hit of `spec`: from what is held, else from a block reserved in the store; `rate_limited` over the limit. */
  async take(spec: LimitSpec): Promise<void> {
    if (this.takeHeld(spec.name)) return;
    const now = this.#now();
    const held = this.#held.get(spec.name);
    if (held?.spent === true && held.until > now) throw rateLimited(spec, held.until - now);
    const block = Math.max(1, Math.floor(spec.limit / BLOCKS_PER_WINDOW));
    const { count, resetInMs } = await this.#store.increment(
      STORE_KEYS.counter(spec.name),
      block,
      spec.windowMs,
    );
    const granted = Math.min(block, spec.limit - (count - block));
    const until = this.#now() + resetInMs;
    if (granted <= 0) {
      this.#keep(spec.name, { left: 0, until, spent: true });
      throw rateLimited(spec, resetInMs);
    }
    // Another take of the same name may have reserved meanwhile: what both got is held.
    const current = this.#held.get(spec.name);
    const left = current !== undefined && !current.spent && current.until > now ? current.left : 0;
    this.#keep(spec.name, { left: left + granted - 1, until, spent: false });
  }

  #keep(name: string, held: Held): void {
    this.#held.delete(name);
    // The oldest name goes first: what it held is lost to this instance, never granted twice.
    if (this.#held.size >= MAX_NAMES) this.#held.delete(this.#held.keys().next().value as string);
    this.#held.set(name, held);
  }
}
