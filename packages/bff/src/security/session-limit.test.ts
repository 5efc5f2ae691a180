/**
 * Sessions per address: an address's first session on an instance writes nothing to the store; from its second
 * on the store counts it (the first included), so a flood from one address is refused across instances at the
 * limit, give or take one session per instance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../store/memory-store';
import { SessionLimit } from './session-limit';

let store: MemoryStore;
afterEach(async () => {
  await store.close();
});

/** Opens one session, answering whether it was let through. */
async function opened(limit: SessionLimit, address: string, most: number): Promise<boolean> {
  try {
    await limit.take({ config: { id: 'shop', limits: { sessionsPerIpPerMinute: most } } }, address, address);
    return true;
  } catch (error) {
    expect((error as { code?: string }).code).toBe('rate_limited');
    return false;
  }
}

describe('sessions per address', () => {
  it('writes nothing to the store for an address’s first session, and counts the rest there', async () => {
    const now = 1_800_000_000_000;
    store = createMemoryStore({ now: () => now });
    const limit = new SessionLimit({ store, now: () => now });
    for (let index = 0; index < 50; index += 1)
      expect(await opened(limit, `address-${index}`, 30)).toBe(true);
    expect([...(await store.contents()).keys()].filter((key) => key.includes('sessions:'))).toEqual([]);
    expect(await opened(limit, 'address-7', 30)).toBe(true);
    expect((await store.contents()).get('counter counter:sessions:shop:address-7')).toBe('2');
  });

  it('refuses a flood from one address across instances at the limit, one more per other instance at most', async () => {
    let now = 1_800_000_000_000;
    store = createMemoryStore({ now: () => now });
    const instances = [0, 1, 2].map(() => new SessionLimit({ store, now: () => now }));
    const results: boolean[] = [];
    for (let index = 0; index < 60; index += 1) {
      results.push(await opened(instances[index % 3] as SessionLimit, 'flood', 10));
    }
    expect(results.filter(Boolean).length).toBe(10);
    // One instance alone: the limit exactly, the refusals past it from memory.
    now += 60_000;
    const alone = new SessionLimit({ store, now: () => now });
    const statuses: boolean[] = [];
    for (let index = 0; index < 12; index += 1) statuses.push(await opened(alone, 'flood-2', 10));
    expect(statuses.filter(Boolean).length).toBe(10);
  });
});
