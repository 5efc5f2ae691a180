/**
 * The entry book's contract, the same on every store (memory, the embedded store, a redis-server and a Redis
 * Cluster): a change applies only to the entry as it was read, whole — its value, its deadline, the totals it adds
 * to, its marks — and reads what it is asked right after; changes of other entries never refuse it. Deadlines are
 * read earliest first, marks by range with their count. On a cluster a book's keys share one slot.
 */
import { describe, expect, it } from 'vitest';
import { storesUnderTest } from '../../testing/store-kinds';
import type { BookChange } from './store';

const stores = storesUnderTest('entry-book');

/** A change of `id` from `expected` to `next`, adding nothing unless told. */
const changeOf = (
  id: string,
  expected: string | null,
  next: string | null,
  more: Partial<BookChange> = {},
) => ({
  id,
  expected,
  next,
  deadlineMs: null,
  totals: {},
  addMarks: [],
  removeMarks: [],
  ...more,
});

describe.each(stores.kinds)('an entry book on the %s store', (_name, kind) => {
  const bookOf = (name = 'funding-ledger:acct') => kind.open().store.entryBook(name);

  it('changes an entry only as it was read, with its totals, and reads right after', async () => {
    const book = bookOf();
    const first = await book.change(
      changeOf('chk_a', null, 'a1', {
        totals: { 'amount:USD': 300, 'count:USD': 1 },
        read: { totals: ['amount:USD'] },
      }),
    );
    expect(first?.totals).toEqual({ 'amount:USD': 300 });
    // Another entry's change adds to the same totals: never refused by the first.
    await book.change(changeOf('chk_b', null, 'b1', { totals: { 'amount:USD': 200, 'count:USD': 1 } }));
    // Read as absent, or as another value: refused, and nothing of it applies.
    expect(await book.change(changeOf('chk_a', null, 'a2', { totals: { 'amount:USD': 999 } }))).toBeNull();
    expect(await book.change(changeOf('chk_a', 'a0', 'a2', { totals: { 'amount:USD': 999 } }))).toBeNull();
    const view = await book.read({
      entries: ['chk_a', 'chk_b', 'chk_c'],
      totals: ['amount:USD', 'count:USD', 'none'],
    });
    expect(view.entries).toEqual({ chk_a: 'a1', chk_b: 'b1' });
    expect(view.totals).toEqual({ 'amount:USD': 500, 'count:USD': 2, none: 0 });
    // Deleted, with what it counted taken away: a total back at zero reads zero.
    await book.change(changeOf('chk_a', 'a1', null, { totals: { 'amount:USD': -300, 'count:USD': -1 } }));
    await book.change(changeOf('chk_b', 'b1', null, { totals: { 'amount:USD': -200, 'count:USD': -1 } }));
    expect(await book.read({ entries: ['chk_a'], totals: ['amount:USD'] })).toMatchObject({
      entries: {},
      totals: { 'amount:USD': 0 },
    });
  });

  it('reads the entries past their deadline earliest first, and forgets a deleted entry’s', async () => {
    const book = bookOf();
    await book.change(changeOf('chk_late', null, 'x', { deadlineMs: 1_800_000_003_000 }));
    await book.change(changeOf('chk_early', null, 'x', { deadlineMs: 1_800_000_001_000 }));
    await book.change(changeOf('chk_none', null, 'x'));
    await book.change(changeOf('chk_gone', null, 'x', { deadlineMs: 1_800_000_000_000 }));
    await book.change(changeOf('chk_gone', 'x', null));
    expect((await book.read({ due: { atMs: 1_800_000_005_000, limit: 10 } })).due).toEqual([
      'chk_early',
      'chk_late',
    ]);
    expect((await book.read({ due: { atMs: 1_800_000_002_000, limit: 10 } })).due).toEqual(['chk_early']);
    expect((await book.read({ due: { atMs: 1_800_000_005_000, limit: 1 } })).due).toEqual(['chk_early']);
    // Moved on by a change: due later.
    await book.change(changeOf('chk_early', 'x', 'y', { deadlineMs: 1_800_000_009_000 }));
    expect((await book.read({ due: { atMs: 1_800_000_005_000, limit: 10 } })).due).toEqual(['chk_late']);
  });

  it('reads marks by range: the first of them in order, and how many', async () => {
    const book = bookOf();
    const marks = [
      'address|a1|0002|chk_b',
      'address|a1|0001|chk_a',
      'address|a10|0001|chk_c',
      'session|s1|0001|chk_a',
    ];
    await book.change(changeOf('chk_a', null, 'x', { addMarks: marks }));
    const ranges = [
      { from: 'address|a1|', to: 'address|a1|~', limit: 1 },
      { from: 'address|', to: 'address|~', limit: 10 },
      { from: 'settled|', to: 'settled|~', limit: 10 },
    ];
    expect((await book.read({ marks: ranges })).marks).toEqual([
      { first: ['address|a1|0001|chk_a'], count: 2 },
      // In code-unit order: `0` sorts before `|`, so one prefix never reads into another's range.
      { first: ['address|a10|0001|chk_c', 'address|a1|0001|chk_a', 'address|a1|0002|chk_b'], count: 3 },
      { first: [], count: 0 },
    ]);
    await book.change(changeOf('chk_a', 'x', 'x', { removeMarks: ['address|a1|0001|chk_a'] }));
    expect((await book.read({ marks: ranges.slice(0, 1) })).marks).toEqual([
      { first: ['address|a1|0002|chk_b'], count: 1 },
    ]);
  });
});

describe('an entry book on a Redis Cluster', () => {
  it('keeps its keys in one slot', async () => {
    const keyPrefix = 'slots:';
    const tag = `${keyPrefix}book:{funding-ledger:test:abc:acc_1}`;
    const slots = await Promise.all(
      ['entries', 'totals', 'deadlines', 'marks'].map((part) => stores.cluster().slotOf(`${tag}:${part}`)),
    );
    expect(new Set(slots).size).toBe(1);
  });
});
