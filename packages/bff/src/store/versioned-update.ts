/**
 * @module
 * The one way a value that several requests or instances may change at once is changed: read it, decide what
 * it becomes (inserted, replaced, deleted, or left as it is), write that by compare-and-set on the version read,
 * and on a concurrent change read again after a short random pause — a bounded number of rounds, with a typed
 * outcome the caller turns into its own answer. A slot says where the value lives: a store key
 * ({@link storeSlot}) or a repository (the checkouts' one).
 */
import type { Store, Versioned } from './store';

/** Where a versioned value lives: `S` is what a read gives (value and version), `N` what a write takes. */
export interface VersionedSlot<S, N> {
  /** The value now, or null when there is none. */
  read(): Promise<S | null>;
  /** Write `next` where nothing is; what was written, or null when something is there now. */
  insert(next: N): Promise<S | null>;
  /** Write `next` over `current`; what was written, or null when it changed since it was read. */
  replace(current: S, next: N): Promise<S | null>;
  /** Delete `current`; false when it changed since it was read. */
  remove(current: S): Promise<boolean>;
}

/** What one round decides to do with the value it read. */
export type VersionedDecision<N, R> =
  | {
      kind: 'write';
      next: N;
      result: R;
      /** Undo what deciding made when the write loses to a concurrent change (the next round decides anew). */
      discard?: () => Promise<void>;
    }
  | { kind: 'delete'; result: R }
  | { kind: 'leave'; result: R };

/** How an update ended. */
export type VersionedOutcome<S, R> =
  | { kind: 'written'; result: R; stored: S }
  | { kind: 'deleted'; result: R }
  | { kind: 'left'; result: R }
  /** Every round lost to a concurrent change: nothing was written by this call. */
  | { kind: 'contended' };

/** Write `next` (inserted where nothing was read, over the value read otherwise), answering `result`. */
export const writeValue = <N, R>(next: N, result: R, discard?: () => Promise<void>) =>
  ({ kind: 'write', next, result, discard }) as const;
/** Delete the value read, answering `result`. */
export const deleteValue = <R>(result: R) => ({ kind: 'delete', result }) as const;
/** Write nothing, answering `result`. */
export const leaveValue = <R>(result: R) => ({ kind: 'leave', result }) as const;

export interface VersionedUpdateOptions<S> {
  /** How many read-decide-write rounds before the outcome is `contended`. Default 5. */
  rounds?: number;
  /** The value the caller holds already: the first round decides on it without reading. */
  initial?: S | null;
  /** The pause before round `round` (≥ 1). Default: a random part of 5 ms × the round (at most 8). */
  pauseMs?: (round: number) => number;
}

const jitteredPause = (round: number) => Math.random() * 5 * Math.min(round, 8);

/**
 * Read, decide, compare-and-set, again on a concurrent change. `decide` may throw to refuse (nothing is
 * written); it is called with the value read (null when none) and the round (0 first).
 *
 * @example
 * const outcome = await versionedUpdate(storeSlot(store, key, ttlMs), (current) =>
 *   current === null ? writeValue('1', 'created') : leaveValue('exists'),
 * );
 */
export async function versionedUpdate<S, N, R>(
  slot: VersionedSlot<S, N>,
  decide: (current: S | null, round: number) => VersionedDecision<N, R> | Promise<VersionedDecision<N, R>>,
  options: VersionedUpdateOptions<S> = {},
): Promise<VersionedOutcome<S, R>> {
  const rounds = options.rounds ?? 5;
  const pauseMs = options.pauseMs ?? jitteredPause;
  for (let round = 0; round < rounds; round += 1) {
    if (round > 0) {
      // Another writer got there first: a random pause, so that two do not collide again at once.
      const pause = pauseMs(round);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    const current = round === 0 && options.initial !== undefined ? options.initial : await slot.read();
    const decision = await decide(current, round);
    if (decision.kind === 'leave') return { kind: 'left', result: decision.result };
    if (decision.kind === 'delete') {
      if (current === null || (await slot.remove(current)))
        return { kind: 'deleted', result: decision.result };
      continue;
    }
    const stored =
      current === null ? await slot.insert(decision.next) : await slot.replace(current, decision.next);
    if (stored !== null) return { kind: 'written', result: decision.result, stored };
    await decision.discard?.();
  }
  return { kind: 'contended' };
}

/** The slot of one store key; `ttlMs` is the time to live of every write (or computed from what is written). */
export function storeSlot(
  store: Store,
  key: string,
  ttlMs: number | ((value: string) => number),
): VersionedSlot<Versioned, string> {
  const ttl = typeof ttlMs === 'number' ? () => ttlMs : ttlMs;
  return {
    read: () => store.get(key),
    async insert(value) {
      return (await store.insert(key, value, ttl(value))) ? { value, version: 1 } : null;
    },
    async replace(current, value) {
      const written = await store.compareAndSet(key, current.version, value, ttl(value));
      return written ? { value, version: current.version + 1 } : null;
    },
    remove: (current) => store.compareAndDelete(key, current.version),
  };
}
