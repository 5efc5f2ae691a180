/** Store errors are counted by operation and passed on unchanged; answers that succeed are untouched. */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store';
import { type Store, StoreUnavailableError } from '../store/store';
import { createBffMetrics } from './metrics';
import { countingStoreErrors } from './store-errors';

describe('the store, counting its errors', () => {
  it('counts a failed operation under its name and rethrows the same error', async () => {
    const memory = createMemoryStore();
    const outage = new StoreUnavailableError('redis did not answer');
    const failing: Store = {
      ...memory,
      compareAndSet: () => Promise.reject(outage),
      ping: async () => false,
    };
    const { registry, storeErrors } = createBffMetrics();
    const store = countingStoreErrors(failing, storeErrors);

    expect(await store.insert('k', 'v', 60_000)).toBe(true);
    expect(await store.get('k')).toEqual({ value: 'v', version: 1 });
    await expect(store.compareAndSet('k', 1, 'w', 60_000)).rejects.toBe(outage);
    await expect(store.compareAndSet('k', 1, 'w', 60_000)).rejects.toBe(outage);
    expect(await store.ping()).toBe(false);

    const text = await registry.getSingleMetricAsString('bff_store_errors_total');
    expect(text).toContain('bff_store_errors_total{operation="compareAndSet"} 2');
    expect(text).toContain('bff_store_errors_total{operation="ping"} 1');
    expect(text).not.toMatch(/operation="(get|insert)"} [1-9]/);
    await store.close();
  });
});
