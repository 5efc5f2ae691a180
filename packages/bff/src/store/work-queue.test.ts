/**
 * The work-queue contract (`work-queue.ts`), run against every store: the same cases on the memory store, the
 * embedded store (SQLite, in a temporary data directory) and a real `redis-server`. A store joins by one line in `storesUnderTest` (`testing/store-kinds.ts`); `twin` answers a second handle on the same
 * state (another instance's connection), or the same store where there is only one process.
 */
import { describe, expect, it } from 'vitest';
import { storesUnderTest } from '../../testing/store-kinds';
import type { Store } from './store';
import type { ClaimOptions, QueueItem, WorkQueue } from './work-queue';

const stores = storesUnderTest('queue-test');

const T = 1_800_000_000_000;
const lease: ClaimOptions = { limit: 100, perPartition: 100, leaseMs: 30_000 };
const ids = (items: QueueItem[]) => items.map((item) => item.id);

describe.each(stores.kinds)('the %s store’s work queue', (_name, kind) => {
  function open(name = 'jobs'): { queue: WorkQueue; twin: WorkQueue; store: Store } {
    const { store, twin } = kind.open();
    return { queue: store.queue(name), twin: twin().queue(name), store };
  }

  it('adds an id once, reads it back and takes it off', async () => {
    const { queue } = open();
    expect(await queue.add({ id: 'a', partition: 'p', dueAtMs: T })).toBe(true);
    expect(await queue.add({ id: 'a', partition: 'q', dueAtMs: T + 5 })).toBe(false);
    expect(await queue.get('a')).toEqual({ id: 'a', partition: 'p', dueAtMs: T });
    expect(await queue.get('missing')).toBeNull();
    await queue.remove('a');
    await queue.remove('a');
    expect(await queue.get('a')).toBeNull();
    expect(await queue.claim(T + 1, lease)).toEqual([]);
    expect(await queue.add({ id: 'a', partition: 'q', dueAtMs: T })).toBe(true);
    expect(ids(await queue.claim(T, lease))).toEqual(['a']);
  });

  it('claims only what is due, in due order, and leases it until the lease runs out', async () => {
    const { queue } = open();
    await queue.add({ id: 'later', partition: 'p', dueAtMs: T + 10 });
    await queue.add({ id: 'second', partition: 'p', dueAtMs: T - 5 });
    await queue.add({ id: 'first', partition: 'p', dueAtMs: T - 10 });
    const claimed = await queue.claim(T, { limit: 10, perPartition: 10, leaseMs: 1_000 });
    expect(claimed).toEqual([
      { id: 'first', partition: 'p', dueAtMs: T + 1_000 },
      { id: 'second', partition: 'p', dueAtMs: T + 1_000 },
    ]);
    expect(await queue.get('first')).toEqual({ id: 'first', partition: 'p', dueAtMs: T + 1_000 });
    // Within the lease only the item that came due since is taken; after it, the leased ones come back.
    expect(ids(await queue.claim(T + 999, lease))).toEqual(['later']);
    expect(ids(await queue.claim(T + 1_000, { ...lease, leaseMs: 1_000 }))).toEqual(['first', 'second']);
  });

  it('moves an item by reschedule, which also ends its lease; a missing id is a no-op', async () => {
    const { queue } = open();
    await queue.add({ id: 'a', partition: 'p', dueAtMs: T });
    await queue.add({ id: 'b', partition: 'p', dueAtMs: T });
    expect(ids(await queue.claim(T, lease))).toEqual(['a', 'b']);
    await queue.reschedule('a', T + 50);
    await queue.reschedule('missing', T);
    expect(await queue.get('missing')).toBeNull();
    expect(await queue.claim(T + 49, lease)).toEqual([]);
    expect(ids(await queue.claim(T + 50, lease))).toEqual(['a']);
    await queue.reschedule('b', T - 100);
    expect(ids(await queue.claim(T + 50, lease))).toEqual(['b']);
  });

  it('claims nothing of a paused partition until the pause ends, while other partitions go on', async () => {
    const { queue } = open();
    await queue.add({ id: 'down-1', partition: 'down', dueAtMs: T - 100 });
    await queue.add({ id: 'down-2', partition: 'down', dueAtMs: T - 90 });
    await queue.pausePartition('down', T + 1_000);
    await queue.add({ id: 'down-3', partition: 'down', dueAtMs: T - 80 });
    await queue.add({ id: 'up-1', partition: 'up', dueAtMs: T });
    expect(ids(await queue.claim(T, lease))).toEqual(['up-1']);
    expect(await queue.claim(T + 999, lease)).toEqual([]);
    expect((await queue.stats()).nextClaimableAtMs).toBe(T + 1_000);
    expect(ids(await queue.claim(T + 1_000, lease))).toEqual(['down-1', 'down-2', 'down-3']);
  });

  it('lets a later pause replace an earlier one, and keeps a pause for items added after it', async () => {
    const { queue } = open();
    await queue.pausePartition('p', T + 10_000);
    await queue.add({ id: 'a', partition: 'p', dueAtMs: T });
    expect(await queue.claim(T + 5_000, lease)).toEqual([]);
    await queue.pausePartition('p', T + 5_000);
    expect(ids(await queue.claim(T + 5_000, lease))).toEqual(['a']);
  });

  it('takes at most perPartition from each partition, oldest partition first, limit in all', async () => {
    const { queue } = open();
    for (let index = 0; index < 50; index += 1) {
      await queue.add({ id: `busy-${index}`, partition: 'busy', dueAtMs: T - 1_000 + index });
    }
    await queue.add({ id: 'quiet-1', partition: 'quiet', dueAtMs: T - 1 });
    await queue.add({ id: 'calm-1', partition: 'calm', dueAtMs: T - 2 });
    const first = await queue.claim(T, { limit: 6, perPartition: 3, leaseMs: 60_000 });
    expect(ids(first)).toEqual(['busy-0', 'busy-1', 'busy-2', 'calm-1', 'quiet-1']);
    const second = await queue.claim(T, { limit: 2, perPartition: 3, leaseMs: 60_000 });
    expect(ids(second)).toEqual(['busy-3', 'busy-4']);
  });

  it('counts what waits, when a claim can next take something, and the oldest item’s time on the queue', async () => {
    const { queue } = open();
    expect(await queue.stats()).toEqual({ size: 0, nextClaimableAtMs: null, oldestAddedAtMs: null });
    const before = Date.now();
    await queue.add({ id: 'a', partition: 'p', dueAtMs: T + 20 });
    const after = Date.now();
    await queue.add({ id: 'b', partition: 'q', dueAtMs: T + 10 });
    const stats = await queue.stats();
    expect(stats.size).toBe(2);
    expect(stats.nextClaimableAtMs).toBe(T + 10);
    expect(stats.oldestAddedAtMs).toBeGreaterThanOrEqual(before);
    expect(stats.oldestAddedAtMs).toBeLessThanOrEqual(after);
    // A lease moves the next claimable time, not the time on the queue.
    await queue.claim(T + 10, { limit: 1, perPartition: 1, leaseMs: 100 });
    expect(await queue.stats()).toEqual({
      size: 2,
      nextClaimableAtMs: T + 20,
      oldestAddedAtMs: stats.oldestAddedAtMs,
    });
    await queue.remove('a');
    await queue.remove('b');
    expect(await queue.stats()).toEqual({ size: 0, nextClaimableAtMs: null, oldestAddedAtMs: null });
  });

  it('pages through every item once with scan', async () => {
    const { queue } = open();
    for (let index = 0; index < 250; index += 1) {
      await queue.add({ id: `item-${index}`, partition: `p-${index % 3}`, dueAtMs: T + index });
    }
    const seen = new Map<string, QueueItem>();
    let cursor: string | null = null;
    for (let page = 0; page < 1_000; page += 1) {
      const answer: { items: QueueItem[]; cursor: string | null } = await queue.scan(cursor, 40);
      for (const item of answer.items) seen.set(item.id, item);
      cursor = answer.cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(seen.size).toBe(250);
    expect(seen.get('item-7')).toEqual({ id: 'item-7', partition: 'p-1', dueAtMs: T + 7 });
  });

  it('keeps queues of different names apart', async () => {
    const { store } = open();
    await store.queue('one').add({ id: 'x', partition: 'p', dueAtMs: T });
    expect(await store.queue('two').get('x')).toBeNull();
    expect(await store.queue('two').add({ id: 'x', partition: 'p', dueAtMs: T })).toBe(true);
    expect(ids(await store.queue('one').claim(T, lease))).toEqual(['x']);
    expect((await store.queue('two').stats()).size).toBe(1);
  });

  it('never hands one item to two claimers within a lease', async () => {
    const { queue, twin } = open();
    const count = 300;
    for (let index = 0; index < count; index += 1) {
      await queue.add({ id: `item-${index}`, partition: `p-${index % 7}`, dueAtMs: T - index });
    }
    const options = { limit: 9, perPartition: 2, leaseMs: 60_000 };
    const seen: string[] = [];
    // Two claimers race on the same state until the queue has nothing due; each claim is bounded.
    async function claimer(handle: WorkQueue): Promise<void> {
      for (let round = 0; round < count; round += 1) {
        const claimed = await handle.claim(T, options);
        if (claimed.length === 0) return;
        seen.push(...ids(claimed));
      }
    }
    await Promise.all([claimer(queue), claimer(twin), claimer(queue), claimer(twin)]);
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
  });
});
