/**
 * The per-session request limit reserved from the store in blocks: instances on one store never let more than the
 * limit through in a window together, a block costs one store write, and a spent window is refused from memory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../store/memory-store';
import { ReservedLimit } from './reserved-limit';

let store: MemoryStore;
afterEach(async () => {
  await store.close();
});

/** A store that counts its counters' writes. */
function countingStore(now: () => number): { store: MemoryStore; writes: () => number } {
  store = createMemoryStore({ now });
  let writes = 0;
  const increment = store.increment.bind(store);
  store.increment = async (...args) => {
    writes += 1;
    return await increment(...args);
  };
  return { store, writes: () => writes };
}

const spec = { name: 'session-requests:s1', limit: 100, windowMs: 60_000 };

/** Takes one hit of `limit`, answering whether it was let through. */
async function taken(limit: ReservedLimit): Promise<boolean> {
  try {
    await limit.take(spec);
    return true;
  } catch (error) {
    expect((error as { code?: string }).code).toBe('rate_limited');
    return false;
  }
}

describe('a reserved limit', () => {
  it('lets at most the limit through across instances in a window, a store write per block, none once spent', async () => {
    let now = 1_800_000_000_000;
    const { store, writes } = countingStore(() => now);
    const instances = [0, 1, 2].map(() => new ReservedLimit({ store, now: () => now }));
    let through = 0;
    for (let index = 0; index < 300; index += 1) {
      if (await taken(instances[index % 3] as ReservedLimit)) through += 1;
    }
    // Blocks of 5: what each instance still held when the store was spent is lost to the others, never given twice.
    expect(through).toBeLessThanOrEqual(100);
    expect(through).toBeGreaterThanOrEqual(100 - 2 * 4);
    // 20 blocks were reserved; each instance then learned once that the window is spent.
    expect(writes()).toBe(20 + 3);
    expect(await taken(instances[0] as ReservedLimit)).toBe(false);
    expect(writes()).toBe(23);
    // The next window: reserved again.
    now += 60_000;
    expect(await taken(instances[0] as ReservedLimit)).toBe(true);
    expect(writes()).toBe(24);
  });

  it('spends what it holds without waiting, and says when it holds nothing', async () => {
    const now = 1_800_000_000_000;
    countingStore(() => now);
    const limit = new ReservedLimit({ store, now: () => now });
    expect(limit.takeHeld(spec.name)).toBe(false);
    await limit.take(spec);
    const held = [0, 1, 2, 3, 4].map(() => limit.takeHeld(spec.name));
    expect(held).toEqual([true, true, true, true, false]);
  });
});
