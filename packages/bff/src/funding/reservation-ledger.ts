/**
 * @module
 * The reservation ledger: what this BFF has promised out of the partner's prepaid balance to checkouts that
 * are still open (awaiting payment or being placed), kept in the store so that every instance sees every
 * promise. Each hold is an entry of its own in the account's entry book (`hold-entry.ts`), with the totals and
 * the per-holder marks the caps read kept by the same atomic step, so a hold, a settlement or a read costs the
 * same with ten holds open or ten thousand, and instances changing different checkouts never wait for each
 * other. A hold that needs an approval is first proposed — counted at once, so that any decision taken
 * beside it sees it — then approved against what the others hold as the proposal found them, and made (or
 * taken back): two instances can never both promise the last of the balance. A hold is firm (paid: `direct`,
 * confirmed), unpaid (a checkout awaiting the partner's payment, with the address and session that opened it)
 * or paying (an unpaid hold whose payment the partner started: for a short while it is kept as a firm one is,
 * and still counted against its opener's caps; declined, or its time up, it is unpaid again until its own end).
 * The sums tell them apart, so that unpaid holds never stand in a paying traveller's way (docs/payments.md).
 * Over 300 lines: one atomic protocol (propose, approve, make, take back, settle) whose steps share one book and
 * its retry loop; an entry's own arithmetic is `hold-entry.ts`, last month's record `legacy-ledger.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { NonNegativeMoney } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { BookQuery, BookView, EntryBook, Store } from '../store/store';
import {
  BOOK_NAMES,
  type Counted,
  countedOf,
  deadlineOf,
  entryAt,
  type Hold,
  type HoldEntry,
  kindOf,
  marksFrom,
  PROPOSAL_MS,
  parseEntry,
  readMark,
  SETTLED_HOLD_MS,
  unpaidAgain,
  unpaidEnd,
} from './hold-entry';
import { adoptLegacyLedger } from './legacy-ledger';

export { SETTLED_HOLD_MS } from './hold-entry';

/** Rounds of one change of one checkout's entry before it gives up (only changes of that checkout race it). */
const ENTRY_ROUNDS = 40;
/**
 * Rounds a change waits for another call's proposal on its checkout (half a second or so: a live call makes or
 * takes back its proposal within two store round trips) before it takes the proposal over as its caller's.
 */
const PROPOSAL_WAIT_ROUNDS = 30;
/** How many entries past their deadline one step brings up to date (a read repeats until none is left). */
const DUE_BATCH = 64;
/** At most this many settled holds are read per decision: those settled since the account was read. */
const SETTLED_READ_LIMIT = 10_000;

/** The name of the entry book of one upstream account's ledger. */
export const fundingBookName = (accountKey: string) => `funding-ledger:${accountKey}`;

/** Who makes an unpaid hold: digests of the client's address (an IPv6 /64) and of its session. */
export type UnpaidHolder = NonNullable<Hold['unpaidBy']>;

/** What starting a payment asks for. */
export interface PaymentRequest {
  amount: NonNegativeMoney;
  /** Until when the payment holds firmly (unless confirmed or declined first). */
  untilMs: number;
  /** The payment attempt it is (the declined attempts before it, plus one): its decline ends it. */
  attempt: number;
  /** Who opened the checkout: the maker of its unpaid hold, named again for a hold that ended meanwhile. */
  holder: UnpaidHolder;
}

/** What a hold asks for. */
export interface HoldRequest {
  amount: NonNegativeMoney;
  /** After this the hold counts no more. */
  holdUntilMs: number;
  /** The maker of an unpaid hold; null for a firm one (paid, or being paid). */
  unpaidBy: UnpaidHolder | null;
}

/** The unpaid holds of one address or one session. */
export interface HolderHolds {
  count: number;
  /** When the first of them stops counting (ms since the epoch), or null when there are none. */
  firstEndsAtMs: number | null;
}

/**
 * What the open checkouts hold, as a funding decision sees it. A hold whose payment is in progress is in both
 * `firmMinor` and `unpaidMinor` (and `payingMinor`); `amountMinor` counts every hold once.
 */
export interface HeldFunds {
  amountMinor: number;
  /** How many checkouts hold it. */
  count: number;
  /** What a paying traveller must leave: firm holds (paid) and payments in progress. */
  firmMinor: number;
  /** What holds not yet paid hold (unpaid, and payments in progress), and how many they are. */
  unpaidMinor: number;
  unpaidCount: number;
  /** What payments in progress hold. */
  payingMinor: number;
  /** The holds not yet paid of the holder asking (none when a firm hold is asked for), in every currency. */
  ofAddress: HolderHolds;
  ofSession: HolderHolds;
  /** The payments in progress of the holder asking, and of the account (every currency), each until it ends. */
  paymentsOfAddress: HolderHolds;
  paymentsOfSession: HolderHolds;
  payments: HolderHolds;
  /** Wholesale spend of the orders this BFF placed this month (a lower bound of the account's). */
  spentThisMonthMinor: number;
}

/** The ledger of one upstream account. */
export interface ReservationLedger {
  /** What open checkouts hold in `currency`, seen from an account read made at `accountReadAtMs`. */
  held(currency: NonNegativeMoney['currency'], accountReadAtMs: number): Promise<HeldFunds>;
  /**
   * Hold `request.amount` for `checkoutId` if `approve` (given what the others hold) does not throw; atomic
   * against every other instance. One hold per checkout: asked again, a firm hold only moves its expiry to the
   * later, an unpaid one stays as it is (never renewed), and an unpaid one asked to be firm is approved again
   * and becomes firm.
   */
  hold(
    checkoutId: string,
    request: HoldRequest,
    approve: (others: HeldFunds) => void,
    accountReadAtMs: number,
  ): Promise<void>;
  /**
   * The partner starts the checkout's payment: its hold is kept firmly until `request.untilMs`, still counted
   * against its maker's caps, if `approve` (given what the others hold, and the payments in progress of that
   * maker) does not throw. A hold that ended meanwhile is made again for the payment alone (released when the
   * payment ends). A payment in progress, or a firm hold, is left as it is (never renewed); true when a payment
   * started.
   */
  startPayment(
    checkoutId: string,
    request: PaymentRequest,
    approve: (others: HeldFunds) => void,
    accountReadAtMs: number,
  ): Promise<boolean>;
  /**
   * Payment attempt `attempt` was declined: a payment in progress of that attempt or an earlier one ends, and the
   * hold is unpaid again until its own end (or gone, when that has passed). True when one ended.
   */
  endPayment(checkoutId: string, attempt: number): Promise<boolean>;
  /** Keep a checkout's hold, firm, until `holdUntilMs` (a confirmed checkout waits for its placement). */
  extend(checkoutId: string, holdUntilMs: number): Promise<void>;
  /** The order was placed: the hold counts until the account is read again; true when this call settled it. */
  settle(checkoutId: string, atMs: number): Promise<boolean>;
  /** The checkout ended without an order: its hold is gone. */
  release(checkoutId: string): Promise<void>;
}

/**
 * What a change of one entry does: write `next` (null: nothing left), leave it (and what the call answers), or
 * wait for another call's proposal on the same checkout to be made or taken back, and look again.
 */
type EntryEdit<T> = { next: HoldEntry | null; answer: T } | { leave: T } | { wait: true };

/** The pause before looking again at an entry another call is changing: a random part of 5 ms × the round. */
const pauseBefore = (round: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(round + 1, 8)));

/** What a write of an entry answers: the view it read, the value it wrote and what that counts. */
interface Written {
  view: BookView;
  value: string | null;
  counted: Counted;
}

/** `entry` with `hold` proposed under `token`, beside the hold it has (both counted until one goes). */
const proposing = (entry: HoldEntry | null, hold: Hold, token: string, time: number): HoldEntry => ({
  hold: entry?.hold ?? null,
  proposal: { hold, token, untilMs: time + PROPOSAL_MS },
  endedUntilMs: entry?.endedUntilMs ?? null,
});

const noHolds = (): HolderHolds => ({ count: 0, firstEndsAtMs: null });

/** The {@link ReservationLedger} of `accountKey` in `store`. */
export function createReservationLedger(
  store: Store,
  accountKey: string,
  now: () => number = Date.now,
): ReservationLedger {
  const book: EntryBook = store.entryBook(fundingBookName(accountKey));

  /** Refused as "try again in a moment" (never kept as an idempotent answer). */
  const busy = (why: string) =>
    new ApiError('rate_limited', {
      retryAfterSeconds: 1,
      params: { reason: 'busy' },
      cause: new Error(`the funding ledger ${accountKey}: ${why}`),
    });

  /**
   * Write entry `id`, read as `raw`, as `next` at `time`: the totals and marks take away what it counted and add
   * what it counts now, with `extra` added to the totals. The view of `read` after it, the value written and what
   * it counts; null when the entry changed since it was read.
   */
  async function write(
    id: string,
    raw: string | null,
    next: HoldEntry | null,
    time: number,
    read?: BookQuery,
    extra: Record<string, number> = {},
  ): Promise<Written | null> {
    const before: Counted = raw === null ? { totals: {}, marks: [] } : parseEntry(raw).counted;
    const entry = entryAt(next, time);
    const counted = countedOf(entry, id, time);
    const totals: Record<string, number> = { ...extra };
    for (const [name, value] of Object.entries(counted.totals)) totals[name] = (totals[name] ?? 0) + value;
    for (const [name, value] of Object.entries(before.totals)) totals[name] = (totals[name] ?? 0) - value;
    const value = entry === null ? null : JSON.stringify({ ...entry, counted });
    const view = await book.change({
      id,
      expected: raw,
      next: value,
      deadlineMs: entry === null ? null : deadlineOf(entry, time),
      totals,
      addMarks: counted.marks.filter((mark) => !before.marks.includes(mark)),
      removeMarks: before.marks.filter((mark) => !counted.marks.includes(mark)),
      read,
    });
    return view === null ? null : { view, value, counted };
  }

  /**
   * Change the entry of `id` by `edit` (given it as it is now), again on a fresh read when another instance
   * changed it meanwhile; `known` is its value as this call last wrote it (read first when absent). Answers
   * `edit`'s answer and, when it wrote, what {@link write} answers.
   */
  async function update<T>(
    id: string,
    edit: (entry: HoldEntry | null, time: number) => EntryEdit<T>,
    options: {
      /** What the change reads, after it (given the entry as the edit saw it). */
      read?: (entry: HoldEntry | null, time: number) => BookQuery;
      extra?: (entry: HoldEntry | null) => Record<string, number>;
      known?: string | null;
    } = {},
  ): Promise<{ answer: T; written: Written | null }> {
    let known = options.known;
    let waits = 0;
    for (let round = 0; round < ENTRY_ROUNDS; round += 1) {
      const raw = known !== undefined ? known : ((await book.read({ entries: [id] })).entries[id] ?? null);
      known = undefined;
      const time = now();
      let entry = entryAt(raw === null ? null : parseEntry(raw), time);
      // A proposal still there after that long was left by a call that died (a killed instance) or stalled: this
      // change takes it over (the write takes away what it counted), so the traveller's retry is served now and
      // not refused until its time is up. A stalled call finds its proposal gone and answers busy.
      if (waits >= PROPOSAL_WAIT_ROUNDS && entry?.proposal != null) entry = { ...entry, proposal: null };
      const edited = edit(entry, time);
      if ('wait' in edited) {
        waits += 1;
        await pauseBefore(round);
        continue;
      }
      if ('leave' in edited) return { answer: edited.leave, written: null };
      const read = options.read?.(entry, time);
      const written = await write(id, raw, edited.next, time, read, options.extra?.(entry));
      if (written !== null) return { answer: edited.answer, written };
    }
    throw busy(`checkout ${id} kept changing`);
  }

  /**
   * Bring every entry past its deadline up to date (what it counts changed by itself), a batch at a time, so
   * that the totals read next count only what counts now.
   */
  async function catchUp(time: number): Promise<void> {
    for (let batch = 0; batch < 1_000; batch += 1) {
      const due = (await book.read({ due: { atMs: time, limit: DUE_BATCH } })).due;
      if (due.length === 0) return;
      const { entries } = await book.read({ entries: due });
      // Another instance may bring one up to date meanwhile: then its write stands, and this one is refused.
      await Promise.all(
        due.map((id) => {
          const raw = entries[id] ?? null;
          return raw === null ? null : write(id, raw, parseEntry(raw), time);
        }),
      );
      if (due.length < DUE_BATCH) return;
    }
  }

  /** Before any change or read: the record of the release before moved into the book, and due entries met. */
  async function prepare(): Promise<void> {
    // Different entries (the record's holds are new ones): neither waits for the other.
    await Promise.all([
      adoptLegacyLedger(store, accountKey, book, async (id, raw, hold) => {
        await write(id, raw, { hold, proposal: null, endedUntilMs: null }, now());
      }),
      catchUp(now()),
    ]);
  }

  /** What a read of the held funds in `currency` asks the book for, with the holder's marks when there is one. */
  function heldQuery(currency: string, readAtMs: number, holder: UnpaidHolder | null): BookQuery {
    const time = now();
    const ranges = [marksFrom(BOOK_NAMES.payments()), marksFrom(BOOK_NAMES.settled(), readAtMs)];
    if (holder !== null) {
      ranges.push(
        marksFrom(BOOK_NAMES.ofAddress(holder.address)),
        marksFrom(BOOK_NAMES.ofSession(holder.session)),
        marksFrom(BOOK_NAMES.paymentsOfAddress(holder.address)),
        marksFrom(BOOK_NAMES.paymentsOfSession(holder.session)),
      );
    }
    return {
      totals: [
        BOOK_NAMES.amount(currency),
        BOOK_NAMES.count(currency),
        BOOK_NAMES.firm(currency),
        BOOK_NAMES.unpaid(currency),
        BOOK_NAMES.unpaidCount(currency),
        BOOK_NAMES.paying(currency),
        BOOK_NAMES.spent(time, currency),
      ],
      // An entry counts at most two marks of one range (its hold's and its proposal's): one more is another's.
      marks: ranges.map((range, index) => ({ ...range, limit: index === 1 ? SETTLED_READ_LIMIT : 3 })),
    };
  }

  /**
   * The held funds in `currency` as `view` (of {@link heldQuery}) tells them, without what checkout `except`
   * counts (`own`), seen from an account read made at `readAtMs`.
   */
  async function heldFrom(
    view: BookView,
    currency: string,
    readAtMs: number,
    holder: UnpaidHolder | null,
    except: string | null = null,
    own: Counted = { totals: {}, marks: [] },
  ): Promise<HeldFunds> {
    const time = now();
    const total = (name: string) => (view.totals[name] ?? 0) - (own.totals[name] ?? 0);
    const notOwn = (mark: string) => except === null || readMark(mark).id !== except;
    const holds = (index: number, prefix: string): HolderHolds => {
      const range = view.marks[index];
      if (range === undefined) return noHolds();
      const owned = own.marks.filter((mark) => mark.startsWith(prefix)).length;
      const first = range.first.find(notOwn);
      return { count: range.count - owned, firstEndsAtMs: first === undefined ? null : readMark(first).ms };
    };
    const held: HeldFunds = {
      amountMinor: total(BOOK_NAMES.amount(currency)),
      count: total(BOOK_NAMES.count(currency)),
      firmMinor: total(BOOK_NAMES.firm(currency)),
      unpaidMinor: total(BOOK_NAMES.unpaid(currency)),
      unpaidCount: total(BOOK_NAMES.unpaidCount(currency)),
      payingMinor: total(BOOK_NAMES.paying(currency)),
      ofAddress: holder === null ? noHolds() : holds(2, BOOK_NAMES.ofAddress(holder.address)),
      ofSession: holder === null ? noHolds() : holds(3, BOOK_NAMES.ofSession(holder.session)),
      paymentsOfAddress: holder === null ? noHolds() : holds(4, BOOK_NAMES.paymentsOfAddress(holder.address)),
      paymentsOfSession: holder === null ? noHolds() : holds(5, BOOK_NAMES.paymentsOfSession(holder.session)),
      payments: holds(0, BOOK_NAMES.payments()),
      spentThisMonthMinor: view.totals[BOOK_NAMES.spent(time, currency)] ?? 0,
    };
    // Settled holds count only against an account read older than their settlement: the few settled since.
    const settledIds = (view.marks[1]?.first ?? []).filter(notOwn).map((mark) => readMark(mark).id);
    if (settledIds.length > 0) {
      const { entries } = await book.read({ entries: settledIds });
      for (const raw of Object.values(entries)) {
        const hold = parseEntry(raw).hold;
        if (hold?.settledAtMs != null && hold.settledAtMs >= readAtMs)
          addSettled(held, hold, currency, holder, time);
      }
    }
    return held;
  }

  /**
   * Approve `hold`, proposed for checkout `id` under `token` (`proposed`: what that write answered), against the
   * others as the proposal found them, and make it the entry's hold; taken back when `approve` throws.
   */
  async function approveAndMake(
    id: string,
    proposed: Written | null,
    hold: Hold,
    approve: (others: HeldFunds) => void,
    accountReadAtMs: number,
    token: string,
  ): Promise<void> {
    if (proposed === null) throw busy(`the proposal for checkout ${id} was not written`);
    const ours = (entry: HoldEntry | null): entry is HoldEntry => entry?.proposal?.token === token;
    const { view, value, counted } = proposed;
    try {
      approve(await heldFrom(view, hold.currency, accountReadAtMs, hold.unpaidBy, id, counted));
    } catch (error) {
      await update(
        id,
        (entry) =>
          ours(entry) ? { next: { ...entry, proposal: null }, answer: undefined } : { leave: undefined },
        { known: value },
      );
      throw error;
    }
    const made = await update(
      id,
      (entry) =>
        ours(entry)
          ? { next: { ...entry, hold: entry.proposal?.hold ?? hold, proposal: null }, answer: true }
          : { leave: false },
      { known: value },
    );
    // The proposal outlived its time (a stalled process): what it was approved against no longer holds.
    if (!made.answer) throw busy(`the proposal for checkout ${id} ended before it was made`);
  }

  return {
    async held(currency, accountReadAtMs) {
      await prepare();
      const query = heldQuery(currency, accountReadAtMs, null);
      return await heldFrom(await book.read(query), currency, accountReadAtMs, null);
    },
    async hold(checkoutId, request, approve, accountReadAtMs) {
      const { amount, holdUntilMs, unpaidBy } = request;
      await prepare();
      const token = randomUUID();
      const hold: Hold = {
        amountMinor: amount.amountMinor,
        currency: amount.currency,
        holdUntilMs,
        settledAtMs: null,
        unpaidBy,
        payment: null,
      };
      const asked = await update(
        checkoutId,
        (entry, time): EntryEdit<'proposed' | 'done'> => {
          // Another call on this checkout (a second confirm, on any instance) is deciding: its outcome first.
          if (entry?.proposal != null) return { wait: true };
          const existing = entry?.hold ?? null;
          // The same checkout again (a retried or resumed create, a second confirm): one hold, never two, and an
          // unpaid one never renewed. A firm hold asked for again keeps the later expiry.
          if (existing !== null || entry?.endedUntilMs != null) {
            if (unpaidBy !== null) return { leave: 'done' };
            if (existing !== null && existing.unpaidBy === null && existing.holdUntilMs > time) {
              if (existing.holdUntilMs >= holdUntilMs) return { leave: 'done' };
              return {
                next: { ...(entry as HoldEntry), hold: { ...existing, holdUntilMs } },
                answer: 'done',
              };
            }
          }
          return { next: proposing(entry, hold, token, time), answer: 'proposed' };
        },
        { read: () => heldQuery(amount.currency, accountReadAtMs, unpaidBy) },
      );
      if (asked.answer === 'proposed')
        await approveAndMake(checkoutId, asked.written, hold, approve, accountReadAtMs, token);
    },
    async startPayment(checkoutId, request, approve, accountReadAtMs) {
      const { amount, untilMs, attempt } = request;
      await prepare();
      const token = randomUUID();
      const asked = await update(
        checkoutId,
        (entry, time): EntryEdit<Hold | null> => {
          if (entry?.proposal != null) return { wait: true };
          const existing = entry?.hold ?? null;
          const kind = existing === null ? null : kindOf(existing, time);
          // Paid (confirmed, placed; or made firm by an earlier release's payment start), or a payment running:
          // the hold stays as it is — a payment started again is neither renewed nor counted twice.
          if (existing?.settledAtMs != null || kind === 'firm' || kind === 'paying') return { leave: null };
          // The same holder as the unpaid hold; its own end is where a declined or abandoned payment returns to
          // (a hold that ended has none left: it goes when the payment does).
          const unpaid = kind === 'unpaid' ? existing : null;
          const unpaidUntilMs = unpaid === null ? time : unpaidEnd(unpaid);
          const hold: Hold = {
            amountMinor: amount.amountMinor,
            currency: amount.currency,
            holdUntilMs: Math.max(untilMs, unpaidUntilMs),
            settledAtMs: null,
            unpaidBy: unpaid?.unpaidBy ?? request.holder,
            payment: { untilMs, unpaidUntilMs, attempt },
          };
          return { next: proposing(entry, hold, token, time), answer: hold };
        },
        {
          // The holder the unpaid hold names (a hold of an earlier release may name another than the request).
          read: (entry, time) => {
            const existing = entry?.hold ?? null;
            const unpaid = existing !== null && kindOf(existing, time) === 'unpaid' ? existing : null;
            return heldQuery(amount.currency, accountReadAtMs, unpaid?.unpaidBy ?? request.holder);
          },
        },
      );
      const hold = asked.answer;
      if (hold === null) return false;
      await approveAndMake(checkoutId, asked.written, hold, approve, accountReadAtMs, token);
      return true;
    },
    async endPayment(checkoutId, attempt) {
      await prepare();
      const ended = await update(checkoutId, (entry, time): EntryEdit<boolean> => {
        const existing = entry?.hold ?? null;
        // Only a hold still not paid: a confirmed one is firm whatever a late decline says.
        if (existing?.payment == null || existing.unpaidBy === null || existing.payment.attempt > attempt)
          return { leave: false };
        const hold = existing.payment.unpaidUntilMs > time ? unpaidAgain(existing) : null;
        return { next: { ...(entry as HoldEntry), hold }, answer: true };
      });
      return ended.answer;
    },
    async extend(checkoutId, holdUntilMs) {
      await prepare();
      await update(checkoutId, (entry): EntryEdit<void> => {
        const existing = entry?.hold ?? null;
        if (existing === null || existing.settledAtMs !== null) return { leave: undefined };
        if (existing.unpaidBy === null && existing.holdUntilMs >= holdUntilMs) return { leave: undefined };
        const hold = {
          ...existing,
          holdUntilMs: Math.max(existing.holdUntilMs, holdUntilMs),
          unpaidBy: null,
          payment: null,
        };
        return { next: { ...(entry as HoldEntry), hold }, answer: undefined };
      });
    },
    async settle(checkoutId, atMs) {
      await prepare();
      const settled = await update(
        checkoutId,
        (entry): EntryEdit<boolean> => {
          const existing = entry?.hold ?? null;
          if (existing === null || existing.settledAtMs !== null) return { leave: false };
          const hold = {
            ...existing,
            settledAtMs: atMs,
            holdUntilMs: Math.max(existing.holdUntilMs, atMs + SETTLED_HOLD_MS),
            payment: null,
          };
          return { next: { ...(entry as HoldEntry), hold }, answer: true };
        },
        {
          // The month's spend, by the same step that settles the hold: once, whoever settles it.
          extra: (entry) =>
            entry?.hold == null
              ? {}
              : { [BOOK_NAMES.spent(atMs, entry.hold.currency)]: entry.hold.amountMinor },
        },
      );
      return settled.answer;
    },
    async release(checkoutId) {
      await prepare();
      await update(checkoutId, (entry): EntryEdit<void> => {
        if (entry === null || (entry.hold === null && entry.endedUntilMs === null))
          return { leave: undefined };
        // A proposal under way stays its caller's to make or take back.
        return {
          next: entry.proposal === null ? null : { ...entry, hold: null, endedUntilMs: null },
          answer: undefined,
        };
      });
    },
  };
}

/** Add settled `hold` (counting at `now`) to `held`, as the totals count a hold that is not settled. */
function addSettled(
  held: HeldFunds,
  hold: Hold,
  currency: string,
  holder: UnpaidHolder | null,
  now: number,
): void {
  const kind = kindOf(hold, now);
  if (kind === null) return;
  const add = (holds: HolderHolds, endsAtMs: number) => {
    holds.count += 1;
    holds.firstEndsAtMs = Math.min(holds.firstEndsAtMs ?? endsAtMs, endsAtMs);
  };
  // Counted in every currency: the caps are on checkouts and payments, not on amounts.
  const paymentEnd = kind === 'paying' ? (hold.payment?.untilMs ?? hold.holdUntilMs) : null;
  if (paymentEnd !== null) add(held.payments, paymentEnd);
  if (hold.unpaidBy !== null && holder !== null) {
    if (hold.unpaidBy.address === holder.address) {
      add(held.ofAddress, hold.holdUntilMs);
      if (paymentEnd !== null) add(held.paymentsOfAddress, paymentEnd);
    }
    if (hold.unpaidBy.session === holder.session) {
      add(held.ofSession, hold.holdUntilMs);
      if (paymentEnd !== null) add(held.paymentsOfSession, paymentEnd);
    }
  }
  if (hold.currency !== currency) return;
  held.amountMinor += hold.amountMinor;
  held.count += 1;
  if (kind !== 'unpaid') held.firmMinor += hold.amountMinor;
  if (kind !== 'firm') {
    held.unpaidMinor += hold.amountMinor;
    held.unpaidCount += 1;
  }
  if (kind === 'paying') held.payingMinor += hold.amountMinor;
}
