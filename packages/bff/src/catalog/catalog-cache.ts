/**
 * @module
 * A value loaded from the upstream and kept fresh: one load in flight at a time (no stampede), refreshed
 * on an interval and on demand, and the last good value served while the upstream is down.
 */
import { type BackgroundLoop, createBackgroundLoop } from '../background-loop';
import type { Logger } from '../logger';

/** Options of {@link createCatalogCache}. */
export interface CatalogCacheOptions<T> {
  /** Loads a fresh value; gets the current one (to reuse what did not change) and whether it is forced. */
  load: (previous: T | undefined, force: boolean) => Promise<T>;
  /** Time between background refreshes; 0 turns them off. */
  refreshIntervalMs: number;
  logger: Logger;
}

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
  /** Stops them. */
  stop(): void;
  status(): CatalogCacheStatus;
}

/** A cache around `load` with stale-while-error and single-flight refreshes. */
export function createCatalogCache<T>(options: CatalogCacheOptions<T>): CatalogCache<T> {
  let value: T | undefined;
  let loadedAt: number | null = null;
  let lastError: unknown = null;
  let inFlight: Promise<T> | undefined;
  let loop: BackgroundLoop | undefined;

  async function load(force: boolean): Promise<T> {
    try {
      const next = await options.load(value, force);
      value = next;
      loadedAt = Date.now();
      lastError = null;
      return next;
    } catch (error) {
      lastError = error;
      options.logger.warn('catalog refresh failed', {
        serving: value === undefined ? 'nothing' : 'stale',
        error,
      });
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
    stop() {
      void loop?.close();
      loop = undefined;
    },
    status: () => ({ loaded: value !== undefined, stale: lastError !== null, loadedAt, lastError }),
  };
}
