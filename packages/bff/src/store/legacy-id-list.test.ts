/**
 * The lists of the release before move onto the work queues: at once, and again when an instance of that release
 * writes one during a rolling deploy (looked for at most once a minute).
 */
import { describe, expect, it } from 'vitest';
import { legacyIdListMover } from './legacy-id-list';
import { createMemoryStore } from './memory-store';

describe('a list of the release before', () => {
  it('is moved onto the queue at once and again when it is written back later; finished ids are dropped', async () => {
    const store = createMemoryStore();
    const queue = store.queue('watch');
    const partitionOf = async (id: string) => (id.startsWith('done') ? null : 'shop');
    const move = legacyIdListMover(store, 'old-list', queue, partitionOf);
    await store.insert('old-list', JSON.stringify(['a', 'done-b']), 60_000);
    await move(1_000);
    expect(await queue.get('a')).toEqual({ id: 'a', partition: 'shop', dueAtMs: 1_000 });
    expect(await queue.get('done-b')).toBeNull();
    expect(await store.get('old-list')).toBeNull();
    // An instance of the release before writes the list again: picked up within the minute, not on every round.
    await store.insert('old-list', JSON.stringify(['c']), 60_000);
    await move(30_000);
    expect(await queue.get('c')).toBeNull();
    await move(61_000);
    expect(await queue.get('c')).toEqual({ id: 'c', partition: 'shop', dueAtMs: 61_000 });
    expect((await queue.stats()).size).toBe(2);
    await store.close();
  });
});
