/**
 * The versioned update over the memory store: each decision (insert, replace, delete, leave), a refusal, the
 * rounds after a concurrent change (with what a lost round made undone), and the bounded end.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store';
import type { Store } from './store';
import { deleteValue, leaveValue, storeSlot, versionedUpdate, writeValue } from './versioned-update';

const TTL = 60_000;
const noPause = { pauseMs: () => 0 };

/** A store whose next `times` compare-and-sets on `key` find a newer version (another writer got there). */
function contended(store: Store, key: string, times: number): Store {
  let left = times;
  return {
    ...store,
    async compareAndSet(target, version, value, ttlMs) {
      if (target === key && left > 0) {
        left -= 1;
        const current = await store.get(key);
        await store.compareAndSet(key, version, `${current?.value}+other`, ttlMs);
        return false;
      }
      return await store.compareAndSet(target, version, value, ttlMs);
    },
  };
}

describe('versionedUpdate', () => {
  it('inserts where nothing is, replaces what it read, deletes and leaves as decided', async () => {
    const store = createMemoryStore();
    const slot = storeSlot(store, 'k', TTL);
    const bump = (current: { value: string } | null) =>
      writeValue(String(Number(current?.value ?? '0') + 1), 'bumped');
    expect(await versionedUpdate(slot, bump)).toEqual({
      kind: 'written',
      result: 'bumped',
      stored: { value: '1', version: 1 },
    });
    expect(await versionedUpdate(slot, bump)).toMatchObject({ stored: { value: '2', version: 2 } });
    expect(await versionedUpdate(slot, () => leaveValue('as is'))).toEqual({ kind: 'left', result: 'as is' });
    expect(await store.get('k')).toEqual({ value: '2', version: 2 });
    expect(await versionedUpdate(slot, () => deleteValue('gone'))).toEqual({
      kind: 'deleted',
      result: 'gone',
    });
    expect(await store.get('k')).toBeNull();
  });

  it('reads again after a concurrent change and decides on the newer value', async () => {
    const base = createMemoryStore();
    await base.insert('k', 'a', TTL);
    const seen: string[] = [];
    const outcome = await versionedUpdate(
      storeSlot(contended(base, 'k', 2), 'k', TTL),
      (current) => {
        seen.push(current?.value ?? '');
        return writeValue(`${current?.value}+mine`, null);
      },
      noPause,
    );
    expect(seen).toEqual(['a', 'a+other', 'a+other+other']);
    expect(outcome).toMatchObject({ kind: 'written', stored: { value: 'a+other+other+mine', version: 4 } });
  });

  it('undoes what a lost round made, and ends contended after its rounds without writing', async () => {
    const base = createMemoryStore();
    await base.insert('k', 'a', TTL);
    let discarded = 0;
    const outcome = await versionedUpdate(
      storeSlot(contended(base, 'k', 10), 'k', TTL),
      () =>
        writeValue('mine', null, async () => {
          discarded += 1;
        }),
      { ...noPause, rounds: 3 },
    );
    expect(outcome).toEqual({ kind: 'contended' });
    expect(discarded).toBe(3);
    expect((await base.get('k'))?.value).toBe('a+other+other+other');
  });

  it('decides first on the value the caller holds, and a refusal writes nothing', async () => {
    const store = createMemoryStore();
    await store.insert('k', 'a', TTL);
    const outcome = await versionedUpdate(storeSlot(store, 'k', TTL), () => writeValue('b', null), {
      initial: null,
    });
    // The caller said "nothing there": the insert loses, and the next round reads what is there.
    expect(outcome).toMatchObject({ kind: 'written', stored: { value: 'b', version: 2 } });
    await expect(
      versionedUpdate(storeSlot(store, 'k', TTL), () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.get('k')).toEqual({ value: 'b', version: 2 });
  });
});
