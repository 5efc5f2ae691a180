/**
 * What one more hold, and its settlement, costs the store with 10 holds open on the account and with 2,000: the
 * bytes of every value written and the store calls made are the same — no record that grows with the sales is
 * rewritten. Counted at the store's interface (values written, book changes), the same for every store.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store';
import type { EntryBook, Store } from '../store/store';
import { createReservationLedger } from './reservation-ledger';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });

/** `store`, counting the calls made to it and the bytes of what it is asked to write. */
function meteredStore(store: Store) {
  const metered = { calls: 0, bytesWritten: 0 };
  const call = <T>(bytes: number, run: () => Promise<T>) => {
    metered.calls += 1;
    metered.bytesWritten += bytes;
    return run();
  };
  const wrapped: Store = {
    ...store,
    get: (key) => call(0, () => store.get(key)),
    insert: (key, value, ttlMs) => call(value.length, () => store.insert(key, value, ttlMs)),
    compareAndSet: (key, version, value, ttlMs) =>
      call(value.length, () => store.compareAndSet(key, version, value, ttlMs)),
    compareAndDelete: (key, version) => call(0, () => store.compareAndDelete(key, version)),
    entryBook(name) {
      const book: EntryBook = store.entryBook(name);
      return {
        read: (query) => call(0, () => book.read(query)),
        change: (change) => call(JSON.stringify(change).length, () => book.change(change)),
      };
    },
  };
  return { store: wrapped, metered };
}

describe('the funding ledger’s cost per purchase', () => {
  it('is the same with 2,000 holds open on the account as with 10: bytes written and store calls', async () => {
    const clock = { now: 1_000_000 };
    const costWith = async (open: number) => {
      const { store, metered } = meteredStore(createMemoryStore({ now: () => clock.now }));
      const ledger = createReservationLedger(store, 'acct', () => clock.now);
      for (let index = 0; index < open; index += 1) {
        const unpaidBy = index % 2 === 0 ? null : { address: `addr-${index % 50}`, session: `sess-${index}` };
        await ledger.hold(
          `chk_open_${index}`,
          { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy },
          () => undefined,
          0,
        );
      }
      const before = { ...metered };
      await ledger.hold(
        'chk_new',
        { amount: usd(300), holdUntilMs: clock.now + 3_600_000, unpaidBy: null },
        () => undefined,
        0,
      );
      await ledger.settle('chk_new', clock.now);
      await store.close();
      return {
        calls: metered.calls - before.calls,
        bytesWritten: metered.bytesWritten - before.bytesWritten,
      };
    };
    const few = await costWith(10);
    const many = await costWith(2_000);
    // The ids of the new checkout and the time stamps are the same in both: the same bytes, to the byte.
    expect(many).toEqual(few);
    expect(few.bytesWritten).toBeLessThan(4_000);
  });
});
