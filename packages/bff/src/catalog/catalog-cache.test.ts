import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { createCatalogCache } from './catalog-cache';

const logger = createLogger({ write: () => undefined });

/** A loader whose answers the test releases one by one. */
function controlledLoader() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    pending,
    load: () => {
      calls += 1;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
  };
}

describe('createCatalogCache', () => {
  it('shares one load among concurrent callers (no stampede)', async () => {
    const loader = controlledLoader();
    const cache = createCatalogCache({ load: loader.load, refreshIntervalMs: 0, logger });
    const readers = Promise.all([cache.get(), cache.get(), cache.refresh(), cache.get()]);
    expect(loader.calls).toBe(1);
    loader.pending[0]?.resolve(1);
    expect(await readers).toEqual([1, 1, 1, 1]);
    // Once held, reads do not load again.
    expect(await cache.get()).toBe(1);
    expect(loader.calls).toBe(1);
  });

  it('serves the last good value while refreshes fail, and recovers', async () => {
    const loader = controlledLoader();
    const cache = createCatalogCache({ load: loader.load, refreshIntervalMs: 0, logger });
    const first = cache.get();
    loader.pending[0]?.resolve(1);
    await first;
    const failing = cache.refresh();
    loader.pending[1]?.reject(new Error('upstream down'));
    await expect(failing).rejects.toThrow('upstream down');
    expect(await cache.get()).toBe(1);
    expect(cache.status()).toMatchObject({ loaded: true, stale: true });
    const recovering = cache.refresh();
    loader.pending[2]?.resolve(2);
    expect(await recovering).toBe(2);
    expect(cache.status()).toMatchObject({ loaded: true, stale: false, lastError: null });
  });

  it('fails a first read when nothing was ever loaded, and tries again on the next', async () => {
    const loader = controlledLoader();
    const cache = createCatalogCache({ load: loader.load, refreshIntervalMs: 0, logger });
    const first = cache.get();
    loader.pending[0]?.reject(new Error('upstream down'));
    await expect(first).rejects.toThrow('upstream down');
    const second = cache.get();
    loader.pending[1]?.resolve(5);
    expect(await second).toBe(5);
  });

  it('survives a loader that throws synchronously', async () => {
    let calls = 0;
    const cache = createCatalogCache<number>({
      load: () => {
        calls += 1;
        if (calls === 1) throw new Error('sync failure');
        return Promise.resolve(9);
      },
      refreshIntervalMs: 0,
      logger,
    });
    await expect(cache.get()).rejects.toThrow('sync failure');
    expect(await cache.get()).toBe(9);
  });

  it('loads an incomplete value again sooner than its interval, 1 s then 2 s …, until it is whole', async () => {
    vi.useFakeTimers();
    try {
      const loadedAt: number[] = [];
      const cache = createCatalogCache({
        load: async () => {
          loadedAt.push(Date.now());
          return loadedAt.length;
        },
        refreshIntervalMs: 60_000,
        incomplete: (value) => value < 4,
        logger,
      });
      const start = Date.now();
      cache.start();
      await vi.advanceTimersByTimeAsync(10_000);
      // At start, then 1 s, 2 s and 4 s later; the fourth load is whole: the next waits the interval.
      expect(loadedAt.map((at) => at - start)).toEqual([0, 1_000, 3_000, 7_000]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(loadedAt).toHaveLength(5);
      cache.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes on loading an incomplete value sooner when one of those loads fails', async () => {
    vi.useFakeTimers();
    try {
      const outcomes = ['incomplete', 'fail', 'whole'] as const;
      const loadedAt: number[] = [];
      const cache = createCatalogCache({
        load: async () => {
          loadedAt.push(Date.now());
          const outcome = outcomes[Math.min(loadedAt.length - 1, outcomes.length - 1)];
          if (outcome === 'fail') throw new Error('upstream down');
          return outcome;
        },
        refreshIntervalMs: 60_000,
        incomplete: (value) => value === 'incomplete',
        logger,
      });
      const start = Date.now();
      cache.start();
      await vi.advanceTimersByTimeAsync(5_000);
      // At start, 1 s later (failed, still incomplete), 2 s after that (whole), well before the interval.
      expect(loadedAt.map((at) => at - start)).toEqual([0, 1_000, 3_000]);
      expect(cache.peek()).toBe('whole');
      cache.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refreshes in the background on its interval and stops when told', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const cache = createCatalogCache({
        load: async () => {
          calls += 1;
          return calls;
        },
        refreshIntervalMs: 20,
        logger,
      });
      cache.start();
      cache.start();
      // At start, then every 20 ms: 0, 20, 40, 60, 80, 100 (one timer, though started twice).
      await vi.advanceTimersByTimeAsync(110);
      cache.stop();
      expect(calls).toBe(6);
      expect(cache.peek()).toBe(6);
      await vi.advanceTimersByTimeAsync(60);
      expect(calls).toBe(6);
    } finally {
      vi.useRealTimers();
    }
  });
});
