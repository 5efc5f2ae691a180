/**
 * @module
 * A value loaded from the upstream and kept fresh: one load in flight at a time (no stampede), refreshed
 * on an interval and on demand, and the last good value served while the upstream is down. A value loaded but not
 * whole (a part the upstream did not answer) is loaded again sooner: after 1 s, 2 s, 4 s … up to the interval.
 */
import { type BackgroundLoop, createBackgroundLoop } from '../background-loop';
import { backoffMs } from '../backoff';
import type { Logger } from '../logger';

/** Options of {@link createCatalogCache}. */
export interface CatalogCacheOptions<T> {
  /** Loads a fresh value; gets the current one (to reuse what did not change) and whether it is forced. */
  load: (previous: T | undefined, force: boolean) => Promise<T>;
  /** Time between background refreshes; 0 turns them off. */
  refreshIntervalMs: number;
  /** A loaded value that is not whole yet: refreshed again sooner than the interval (see the module). */
  incomplete?: (value: T) => boolean;
  logger: Logger;
}

/** The first pause before loading an incomplete value again; it doubles up to the refresh interval. */
const INCOMPLETE_RETRY_FIRST_MS = 1_000;

/** Health of the cache, for `/readyz` and logs. */
export interface CatalogCacheStatus {
  /** A value is held. */
  loaded: boolean;
  /** The last refresh failed: the value served is older than it should be. */
  stale: boolean;
  /** When the held value was loaded (ms since the epoch), or null. */
  loadedAt: number | null;
  /** The last refresh's error, or null after a success. */
  lastError: unknown;
}

/** A self-refreshing value. */
export interface CatalogCache<T> {
  /** The held value; on the first call (nothing held yet) waits for a load and throws if it fails. */
  get(): Promise<T>;
  /** The held value, or undefined; never waits. */
  peek(): T | undefined;
  /**
   * Loads now, sharing a load already in flight. Resolves with the new value; on failure keeps the old one
   * and rejects. `force` asks the loader not to reuse anything.
   */
  refresh(options?: { force?: boolean }): Promise<T>;
  /** Starts the background refreshes (the first one at once). Idempotent. */
  start(): void;
  /** Stops them; resolves once a refresh of the loop under way has finished. */
  stop(): Promise<void>;
  status(): CatalogCacheStatus;
}

/** A cache around `load` with stale-while-error and single-flight refreshes. */
export function createCatalogCache<T>(options: CatalogCacheOptions<T>): CatalogCache<T> {
  let value: T | undefined;
  let loadedAt: number | null = null;
  let lastError: unknown = null;
  let inFlight: Promise<T> | undefined;
  let loop: BackgroundLoop | undefined;
  /** Loads in a row whose value was incomplete, and the timer of the sooner refresh. */
  let incompleteLoads = 0;
  let sooner: ReturnType<typeof setTimeout> | undefined;

  /** With the background refreshes on: an incomplete value is loaded again sooner, a whole one waits the loop. */
  function scheduleSooner(next: T): void {
    if (!options.incomplete?.(next)) {
      incompleteLoads = 0;
      return;
    }
    if (loop === undefined || sooner !== undefined) return;
    const pauseMs = backoffMs(incompleteLoads, {
      firstMs: INCOMPLETE_RETRY_FIRST_MS,
      maxMs: options.refreshIntervalMs,
    });
    incompleteLoads += 1;
    sooner = setTimeout(() => {
      sooner = undefined;
      refresh().catch(() => undefined);
    }, pauseMs);
    sooner.unref?.();
  }

  async function load(force: boolean): Promise<T> {
    try {
      const next = await options.load(value, force);
      value = next;
      loadedAt = Date.now();
      lastError = null;
      scheduleSooner(next);
      return next;
    } catch (error) {
      lastError = error;
      options.logger.warn('catalog refresh failed', {
        serving: value === undefined ? 'nothing' : 'stale',
        error,
      });
      // Still incomplete: the sooner loads go on (a failed one does not send it back to the interval).
      if (value !== undefined) scheduleSooner(value);
      throw error;
    }
  }

  function refresh(refreshOptions: { force?: boolean } = {}): Promise<T> {
    // `.finally` runs after the assignment even when the loader fails synchronously.
    inFlight ??= load(refreshOptions.force ?? false).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  return {
    async get() {
      if (value !== undefined) return value;
      return refresh();
    },
    peek: () => value,
    refresh,
    start() {
      if (loop !== undefined || options.refreshIntervalMs <= 0) return;
      // A failed refresh is logged by `load` and served stale; the loop tries again at the next interval.
      loop = createBackgroundLoop(() => refresh(), {
        intervalMs: options.refreshIntervalMs,
        runAtStart: true,
      });
      loop.start();
    },
    async stop() {
      const stopping = loop?.close();
      loop = undefined;
      clearTimeout(sooner);
      sooner = undefined;
      await stopping;
    },
    status: () => ({ loaded: value !== undefined, stale: lastError !== null, loadedAt, lastError }),
  };
}
