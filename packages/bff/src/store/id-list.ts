/**
 * @module
 * A list of ids kept under one store key and changed by compare-and-set, so that any instance may add or take
 * ids while others do (the background watches of checkouts and help requests).
 */
import { z } from 'zod';
import type { Store } from './store';

const IdsSchema = z.array(z.string());

/** The ids under `key` (empty when none). */
export async function readIdList(store: Store, key: string): Promise<string[]> {
  const stored = await store.get(key);
  return stored === null ? [] : IdsSchema.parse(JSON.parse(stored.value));
}

/** Apply `edit` to the ids under `key`, again on a concurrent change; nothing is written when it changes nothing. */
export async function editIdList(
  store: Store,
  key: string,
  edit: (ids: string[]) => string[],
  ttlMs: number,
): Promise<void> {
  for (let round = 0; round < 50; round += 1) {
    const stored = await store.get(key);
    const ids = stored === null ? [] : IdsSchema.parse(JSON.parse(stored.value));
    const next = edit(ids);
    if (stored !== null && next.length === ids.length && next.every((id, i) => id === ids[i])) return;
    const value = JSON.stringify(next);
    const ok =
      stored === null
        ? await store.insert(key, value, ttlMs)
        : await store.compareAndSet(key, stored.version, value, ttlMs);
    if (ok) return;
  }
  throw new Error(`the id list ${key} kept changing: could not update it`);
}
