/**
 * The memory queues' heap against a plain sorted list, over random puts, moves, deletions and pops.
 */
import { describe, expect, it } from 'vitest';
import { IndexedHeap } from './indexed-heap';

describe('IndexedHeap', () => {
  it('answers keys lowest priority first (first put first on ties) through random changes', () => {
    const heap = new IndexedHeap<string>();
    const reference = new Map<string, { priority: number; sequence: number }>();
    let sequence = 0;
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const lowest = () =>
      [...reference.entries()].sort(([, a], [, b]) => a.priority - b.priority || a.sequence - b.sequence)[0];
    for (let step = 0; step < 5_000; step += 1) {
      const key = `k${random(200)}`;
      const action = random(4);
      if (action <= 1) {
        const priority = random(50);
        const known = reference.get(key);
        reference.set(key, { priority, sequence: known?.sequence ?? sequence++ });
        heap.set(key, priority);
      } else if (action === 2) {
        expect(heap.delete(key)).toBe(reference.delete(key));
      } else {
        const expected = lowest();
        expect(heap.pop()).toEqual(
          expected === undefined ? undefined : { key: expected[0], priority: expected[1].priority },
        );
        if (expected !== undefined) reference.delete(expected[0]);
      }
      expect(heap.size).toBe(reference.size);
      expect(heap.priorityOf(key)).toBe(reference.get(key)?.priority);
    }
  });
});
