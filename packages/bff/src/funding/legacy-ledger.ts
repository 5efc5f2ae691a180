/**
 * @module
 * The reservation ledger as the release before kept it — one JSON record per account holding every open hold
 * (record versions 1 to 3, `record-fixtures/funding-ledger.*.json`) — moved into the account's entry book before
 * any change or read: each of its holds becomes an entry unless the book has that checkout already (then the
 * book's is the newer), its month's spend is added once (an entry of the book remembers what was added, changed
 * by the same step), and the record is deleted if nobody changed it meanwhile; otherwise it is read again. An
 * instance of the release before still writing the record meanwhile (a rolling upgrade) has its holds moved at the
 * next change of any instance; none is counted twice. A hold it releases after its move counts until its own end.
 */
import { z } from 'zod';
import { type EntryBook, STORE_KEYS, type Store } from '../store/store';
import { type Hold, HoldSchema } from './hold-entry';

/** Read with defaults, so that every version of the record parses (version 1 had no `schemaVersion`). */
const LegacyLedgerSchema = z.looseObject({
  schemaVersion: z.int().min(1).default(1),
  holds: z.record(z.string(), HoldSchema).default({}),
  /** Wholesale spend of the orders placed, per month and settlement currency (`2026-11:USD`). */
  monthlySpend: z.record(z.string(), z.int().min(0)).default({}),
});

/** The book's entry that remembers the spend taken from the record (no checkout id starts with `~`). */
const ADOPTED_SPEND = '~legacy-ledger-spend';
const AdoptedSchema = z.object({ adoptedSpend: z.record(z.string(), z.number()).default({}) });

/** Rounds of the move before it leaves the record to the next call (its holds are in the book already). */
const ROUNDS = 5;

/**
 * Move the record of `accountKey`, if there is one, into `book`; `writeHold` writes one hold as a new entry (null
 * when the entry was made meanwhile, its write is refused).
 */
export async function adoptLegacyLedger(
  store: Store,
  accountKey: string,
  book: EntryBook,
  writeHold: (id: string, raw: null, hold: Hold) => Promise<unknown>,
): Promise<void> {
  const key = STORE_KEYS.fundingLedger(accountKey);
  for (let round = 0; round < ROUNDS; round += 1) {
    const stored = await store.get(key);
    if (stored === null) return;
    const ledger = LegacyLedgerSchema.parse(JSON.parse(stored.value));
    const ids = Object.keys(ledger.holds);
    const { entries } = await book.read({ entries: ids });
    for (const id of ids) {
      const hold = ledger.holds[id];
      // Refused when another instance moved it (or the checkout changed) meanwhile: the book's entry stands.
      if (hold !== undefined && entries[id] === undefined) await writeHold(id, null, hold);
    }
    await adoptSpend(book, ledger.monthlySpend);
    if (await store.compareAndDelete(key, stored.version)) return;
  }
}

/** Add to the book's spend what the record counts beyond what was added before, by one step with its memory. */
async function adoptSpend(book: EntryBook, monthlySpend: Record<string, number>): Promise<void> {
  for (let round = 0; round < ROUNDS * 4; round += 1) {
    const raw = (await book.read({ entries: [ADOPTED_SPEND] })).entries[ADOPTED_SPEND] ?? null;
    const adopted = raw === null ? {} : AdoptedSchema.parse(JSON.parse(raw)).adoptedSpend;
    const totals: Record<string, number> = {};
    const next = { ...adopted };
    for (const [month, spent] of Object.entries(monthlySpend)) {
      const more = spent - (adopted[month] ?? 0);
      if (more <= 0) continue;
      totals[`spent:${month}`] = more;
      next[month] = spent;
    }
    if (Object.keys(totals).length === 0) return;
    const changed = await book.change({
      id: ADOPTED_SPEND,
      expected: raw,
      next: JSON.stringify({ adoptedSpend: next }),
      deadlineMs: null,
      totals,
      addMarks: [],
      removeMarks: [],
    });
    if (changed !== null) return;
  }
}
