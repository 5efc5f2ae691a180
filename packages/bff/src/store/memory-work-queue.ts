/**
 * @module
 * A {@link WorkQueue} in this process's memory (the memory store's queues): one heap of items by due time per
 * partition, one heap of partitions by the time they can next be claimed (their earliest item, or their pause's
 * end), and the items in the order they were added. Every operation is O(log n) or a bounded batch of them.
 */
import { IndexedHeap } from './indexed-heap';
import type { ClaimOptions, QueueItem, QueueStats, WorkQueue } from './work-queue';

interface MemoryQueueItem extends QueueItem {
  addedAtMs: number;
}

/** A memory work queue; `now` stamps when an item was added. `clear()` empties it (the store's close). */
export function createMemoryWorkQueue(now: () => number): WorkQueue & { clear(): void } {
  /** Every item by id, in the order they were added (a Map keeps insertion order): the first waited longest. */
  const items = new Map<string, MemoryQueueItem>();
  const duesByPartition = new Map<string, IndexedHeap<string>>();
  /** Partitions with items, by the earliest time a claim can take one of them. */
  const partitions = new IndexedHeap<string>();
  const pausedUntil = new Map<string, number>();

  /** Put `partition` back in order after its items or its pause changed. */
  function settle(partition: string): void {
    const head = duesByPartition.get(partition)?.peek();
    if (head === undefined) {
      duesByPartition.delete(partition);
      partitions.delete(partition);
      return;
    }
    partitions.set(partition, Math.max(head.priority, pausedUntil.get(partition) ?? -Infinity));
  }

  function dueHeap(partition: string): IndexedHeap<string> {
    let heap = duesByPartition.get(partition);
    if (heap === undefined) {
      heap = new IndexedHeap<string>();
      duesByPartition.set(partition, heap);
    }
    return heap;
  }

  const snapshot = ({ id, partition, dueAtMs }: QueueItem): QueueItem => ({ id, partition, dueAtMs });

  function claimFrom(partition: string, nowMs: number, room: number, leaseMs: number): QueueItem[] {
    const heap = duesByPartition.get(partition);
    const taken: QueueItem[] = [];
    while (heap !== undefined && taken.length < room) {
      const head = heap.peek();
      if (head === undefined || head.priority > nowMs) break;
      const item = items.get(head.key) as MemoryQueueItem;
      item.dueAtMs = nowMs + leaseMs;
      // Out of the heap until the batch is taken, so a zero lease cannot hand the same item out twice.
      heap.delete(head.key);
      taken.push(item);
    }
    for (const item of taken) heap?.set(item.id, item.dueAtMs);
    return taken.map(snapshot);
  }

  return {
    async add(item) {
      if (items.has(item.id)) return false;
      items.set(item.id, { ...snapshot(item), addedAtMs: now() });
      dueHeap(item.partition).set(item.id, item.dueAtMs);
      settle(item.partition);
      return true;
    },
    async claim(nowMs, options: ClaimOptions) {
      const { limit, perPartition, leaseMs } = options;
      const claimed: QueueItem[] = [];
      // Visited partitions leave the heap until the end, so none is taken from twice in one claim.
      const visited: string[] = [];
      while (claimed.length < limit) {
        const head = partitions.peek();
        if (head === undefined || head.priority > nowMs) break;
        partitions.delete(head.key);
        visited.push(head.key);
        const pause = pausedUntil.get(head.key);
        if (pause !== undefined && pause <= nowMs) pausedUntil.delete(head.key);
        claimed.push(...claimFrom(head.key, nowMs, Math.min(perPartition, limit - claimed.length), leaseMs));
      }
      for (const partition of visited) settle(partition);
      return claimed;
    },
    async reschedule(id, dueAtMs) {
      const item = items.get(id);
      if (item === undefined) return;
      item.dueAtMs = dueAtMs;
      dueHeap(item.partition).set(id, dueAtMs);
      settle(item.partition);
    },
    async pausePartition(partition, untilMs) {
      pausedUntil.set(partition, untilMs);
      settle(partition);
    },
    async remove(id) {
      const item = items.get(id);
      if (item === undefined) return;
      items.delete(id);
      duesByPartition.get(item.partition)?.delete(id);
      settle(item.partition);
    },
    async get(id) {
      const item = items.get(id);
      return item === undefined ? null : snapshot(item);
    },
    async stats(): Promise<QueueStats> {
      const oldest = items.values().next();
      return {
        size: items.size,
        nextClaimableAtMs: partitions.peek()?.priority ?? null,
        oldestAddedAtMs: oldest.done === true ? null : oldest.value.addedAtMs,
      };
    },
    async scan(cursor, count) {
      // The memory store serves tests and one instance: a page is found by position in the order items were added.
      const start = cursor === null ? 0 : Number(cursor);
      const page: QueueItem[] = [];
      let position = 0;
      for (const item of items.values()) {
        if (position >= start + count) break;
        if (position >= start) page.push(snapshot(item));
        position += 1;
      }
      const end = start + page.length;
      return { items: page, cursor: end < items.size ? String(end) : null };
    },
    clear() {
      items.clear();
      duesByPartition.clear();
      partitions.clear();
      pausedUntil.clear();
    },
  };
}
