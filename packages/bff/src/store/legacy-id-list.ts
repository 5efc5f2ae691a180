/**
 * @module
 * The id lists of the release before: the webhook queue, the checkout watch and the help-request watch each kept
 * their ids in one JSON list under one key. At start each list is moved onto its work queue once and deleted, so
 * nothing that was pending before the deploy is forgotten.
 */
import { z } from 'zod';
import type { Store } from './store';
import type { WorkQueue } from './work-queue';

const IdsSchema = z.array(z.string());

/**
 * Add every id of the list under `key` to `queue` (due at `nowMs`, in the partition `partitionOf` finds; an id
 * whose record is gone or finished, answered null, is dropped), then delete the list. True when no list is left:
 * false when another instance of the release before changed it meanwhile (a rolling deploy), so call again later.
 */
export async function moveLegacyIdList(
  store: Store,
  key: string,
  queue: WorkQueue,
  partitionOf: (id: string) => Promise<string | null>,
  nowMs: number,
): Promise<boolean> {
  const stored = await store.get(key);
  if (stored === null) return true;
  for (const id of IdsSchema.parse(JSON.parse(stored.value))) {
    const partition = await partitionOf(id);
    if (partition !== null) await queue.add({ id, partition, dueAtMs: nowMs });
  }
  return await store.compareAndDelete(key, stored.version);
}

/** How often a list of the release before is looked for again (an instance of it may still be running). */
const RECHECK_MS = 60_000;

/**
 * The mover a background loop calls on every round: it looks for the list under `key` at once and then at most
 * once a minute, so a list that an instance of the release before writes again during a rolling deploy is moved
 * too, at the cost of one read a minute.
 */
export function legacyIdListMover(
  store: Store,
  key: string,
  queue: WorkQueue,
  partitionOf: (id: string) => Promise<string | null>,
): (nowMs: number) => Promise<void> {
  let nextCheckAtMs = Number.NEGATIVE_INFINITY;
  return async function moveLegacyList(nowMs) {
    if (nowMs < nextCheckAtMs) return;
    const gone = await moveLegacyIdList(store, key, queue, partitionOf, nowMs);
    nextCheckAtMs = gone ? nowMs + RECHECK_MS : nowMs;
  };
}
