/**
 * @module
 * One checkout's hold as an entry of the funding ledger's book: the hold, a change of it awaiting its approval
 * (counted meanwhile, so that a decision taken beside it sees it), and what the entry counts in the book's totals
 * and marks. What it counts is a function of the entry and the time alone, kept in the entry (`counted`), so that
 * every write takes away what the entry counted and adds what it counts now: the totals always equal the sum of
 * the entries, and an entry is looked at again at its deadline, when what it counts next changes.
 */
import { CurrencySchema } from '@esim-embed/shared';
import { z } from 'zod';

/**
 * How long a settled hold keeps counting: until every instance has read the account again after the order
 * was placed (the upstream's own `reserved` then covers it), with room for a stale read served in an outage.
 */
export const SETTLED_HOLD_MS = 2 * 60_000;
/** How long a change awaiting its approval counts at most (the approval is immediate; this covers a killed process). */
export const PROPOSAL_MS = 30_000;
/** How long an unpaid hold that ended is remembered, so that it is never made again (an unpaid hold is never renewed). */
const ENDED_UNPAID_KEPT_MS = 30 * 60_000;

export const HoldSchema = z.looseObject({
  amountMinor: z.int().min(0),
  currency: CurrencySchema,
  /** After this (ms since the epoch) the hold counts no more: a safety net for a release that was lost. */
  holdUntilMs: z.number(),
  /** When the order was placed upstream; the hold counts until an account read newer than this. */
  settledAtMs: z.number().nullable().default(null),
  /**
   * Who made an unpaid hold (digests of the client's address and of its session); null for a firm hold. Holds of
   * version 1 had none: they read as firm, which can hold back a sale for their last minutes, never over-promise.
   */
  unpaidBy: z.looseObject({ address: z.string(), session: z.string() }).nullable().default(null),
  /**
   * The payment the partner started on an unpaid hold (`payment-started`): until `untilMs` the hold is kept as a
   * firm one is (a paying traveller leaves it), still counted against its maker's caps; after that — or once
   * attempt `attempt` (or a later one) is declined — it is unpaid again until `unpaidUntilMs`, its own end, and
   * gone after. `holdUntilMs` is the later of the two ends, so a release that knows no `payment` keeps the hold as
   * long, as an unpaid one. Firm holds of version 2 made by a payment start have none: they stay firm until
   * their `holdUntilMs` (the checkout's deadline and 5 minutes), as that release kept them.
   */
  payment: z
    .looseObject({ untilMs: z.number(), unpaidUntilMs: z.number(), attempt: z.int().min(1) })
    .nullable()
    .default(null),
});
export type Hold = z.infer<typeof HoldSchema>;

/** What an entry counts in the book: its totals and its marks. */
const CountedSchema = z.object({
  totals: z.record(z.string(), z.number()).default({}),
  marks: z.array(z.string()).default([]),
});
export type Counted = z.infer<typeof CountedSchema>;

const EntrySchema = z.object({
  hold: HoldSchema.nullable().default(null),
  /** A change of the hold awaiting its approval (`token` names the call that proposed it), counted meanwhile. */
  proposal: z.object({ hold: HoldSchema, token: z.string(), untilMs: z.number() }).nullable().default(null),
  /** Set once an unpaid hold ended by itself: until then the same checkout makes no new unpaid hold. */
  endedUntilMs: z.number().nullable().default(null),
  counted: CountedSchema.default({ totals: {}, marks: [] }),
});
/** One checkout's entry, without what it counts (worked out again at every write). */
export interface HoldEntry {
  hold: Hold | null;
  proposal: { hold: Hold; token: string; untilMs: number } | null;
  endedUntilMs: number | null;
}

export const parseEntry = (raw: string): HoldEntry & { counted: Counted } =>
  EntrySchema.parse(JSON.parse(raw));

/** What a hold is at `now`: firm, paying (a payment in progress) or unpaid; null when it no longer counts. */
export type HoldKind = 'firm' | 'paying' | 'unpaid';
export function kindOf(hold: Hold, now: number): HoldKind | null {
  if (hold.holdUntilMs <= now) return null;
  if (hold.unpaidBy === null) return 'firm';
  if (hold.payment === null) return 'unpaid';
  if (hold.payment.untilMs > now) return 'paying';
  return hold.payment.unpaidUntilMs > now ? 'unpaid' : null;
}

/** When an unpaid hold (or one whose payment runs) stops counting as unpaid: its own end. */
export const unpaidEnd = (hold: Hold) => hold.payment?.unpaidUntilMs ?? hold.holdUntilMs;

/** A hold whose payment ended (declined, abandoned) made unpaid again: same holder, its own end. */
export const unpaidAgain = (hold: Hold): Hold => ({ ...hold, holdUntilMs: unpaidEnd(hold), payment: null });

/** When a settled hold stops counting. */
const settledEnd = (hold: Hold) => Math.min(hold.holdUntilMs, (hold.settledAtMs ?? 0) + SETTLED_HOLD_MS);

/** Times in marks: fixed width, so that marks sort by them. */
const stamp = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

/** The names of the book's totals and marks. */
export const BOOK_NAMES = {
  amount: (currency: string) => `amount:${currency}`,
  count: (currency: string) => `count:${currency}`,
  firm: (currency: string) => `firm:${currency}`,
  unpaid: (currency: string) => `unpaid:${currency}`,
  unpaidCount: (currency: string) => `unpaid-count:${currency}`,
  paying: (currency: string) => `paying:${currency}`,
  /** Wholesale spend of the orders this BFF placed, per month and settlement currency (not an entry's). */
  spent: (ms: number, currency: string) => `spent:${new Date(ms).toISOString().slice(0, 7)}:${currency}`,
  /** Marks: the first part names whose they are; the last two are when each ends and its checkout. */
  ofAddress: (digest: string) => `address|${digest}|`,
  ofSession: (digest: string) => `session|${digest}|`,
  paymentsOfAddress: (digest: string) => `payment-address|${digest}|`,
  paymentsOfSession: (digest: string) => `payment-session|${digest}|`,
  payments: () => 'payment|',
  settled: () => 'settled|',
} as const;

/** A mark of `prefix` for checkout `id`, ending (or settled) at `ms`. */
const markOf = (prefix: string, ms: number, id: string) => `${prefix}${stamp(ms)}|${id}`;
/** The marks of `prefix` from `ms` on: `[from, to)`. */
export const marksFrom = (prefix: string, ms = 0) => ({ from: `${prefix}${stamp(ms)}`, to: `${prefix}~` });
/** The time and the checkout a mark names. */
export function readMark(mark: string): { ms: number; id: string } {
  const parts = mark.split('|');
  return { ms: Number(parts.at(-2)), id: parts.at(-1) ?? '' };
}

/** Add what `hold` of checkout `id` counts at `now` to `counted`. */
function countHold(hold: Hold, id: string, now: number, counted: Counted): void {
  const add = (name: string, by: number) => {
    counted.totals[name] = (counted.totals[name] ?? 0) + by;
  };
  const mark = (value: string) => {
    if (!counted.marks.includes(value)) counted.marks.push(value);
  };
  if (hold.settledAtMs !== null) {
    // Counted by the read that asks for it: only against an account read older than its settlement.
    if (settledEnd(hold) > now) mark(markOf(BOOK_NAMES.settled(), hold.settledAtMs, id));
    return;
  }
  const kind = kindOf(hold, now);
  if (kind === null) return;
  const { currency, amountMinor } = hold;
  add(BOOK_NAMES.amount(currency), amountMinor);
  add(BOOK_NAMES.count(currency), 1);
  if (kind !== 'unpaid') add(BOOK_NAMES.firm(currency), amountMinor);
  if (kind !== 'firm') {
    add(BOOK_NAMES.unpaid(currency), amountMinor);
    add(BOOK_NAMES.unpaidCount(currency), 1);
  }
  if (hold.unpaidBy !== null) {
    mark(markOf(BOOK_NAMES.ofAddress(hold.unpaidBy.address), hold.holdUntilMs, id));
    mark(markOf(BOOK_NAMES.ofSession(hold.unpaidBy.session), hold.holdUntilMs, id));
  }
  if (kind === 'paying') {
    add(BOOK_NAMES.paying(currency), amountMinor);
    const paymentEnd = hold.payment?.untilMs ?? hold.holdUntilMs;
    mark(markOf(BOOK_NAMES.payments(), paymentEnd, id));
    if (hold.unpaidBy !== null) {
      mark(markOf(BOOK_NAMES.paymentsOfAddress(hold.unpaidBy.address), paymentEnd, id));
      mark(markOf(BOOK_NAMES.paymentsOfSession(hold.unpaidBy.session), paymentEnd, id));
    }
  }
}

/** What entry `id` counts at `now`: its hold and its proposal, each. */
export function countedOf(entry: HoldEntry | null, id: string, now: number): Counted {
  const counted: Counted = { totals: {}, marks: [] };
  if (entry?.hold) countHold(entry.hold, id, now, counted);
  if (entry?.proposal) countHold(entry.proposal.hold, id, now, counted);
  return counted;
}

/** `entry` as it is at `now`: what ended dropped, a payment whose time is up unpaid again; null when nothing is left. */
export function entryAt(entry: HoldEntry | null, now: number): HoldEntry | null {
  if (entry === null) return null;
  let { hold, proposal, endedUntilMs } = entry;
  if (proposal !== null && proposal.untilMs <= now) proposal = null;
  if (hold !== null && hold.settledAtMs !== null) {
    if (settledEnd(hold) <= now) hold = null;
  } else if (hold !== null) {
    const kind = kindOf(hold, now);
    if (kind === null) {
      if (hold.unpaidBy !== null)
        endedUntilMs = Math.max(endedUntilMs ?? 0, hold.holdUntilMs + ENDED_UNPAID_KEPT_MS);
      hold = null;
    } else if (kind === 'unpaid' && hold.payment !== null) {
      // A payment whose time is up (abandoned): unpaid again, as it was.
      hold = unpaidAgain(hold);
    }
  }
  if (endedUntilMs !== null && endedUntilMs <= now) endedUntilMs = null;
  if (hold === null && proposal === null && endedUntilMs === null) return null;
  return { hold, proposal, endedUntilMs };
}

/** When what `entry` counts next changes (after `now`), or null when it never does by itself. */
export function deadlineOf(entry: HoldEntry, now: number): number | null {
  const times: number[] = [];
  const holdTimes = (hold: Hold) => {
    if (hold.settledAtMs !== null) times.push(settledEnd(hold));
    else times.push(hold.holdUntilMs, hold.payment?.untilMs ?? 0, hold.payment?.unpaidUntilMs ?? 0);
  };
  if (entry.hold !== null) holdTimes(entry.hold);
  if (entry.proposal !== null) {
    holdTimes(entry.proposal.hold);
    times.push(entry.proposal.untilMs);
  }
  if (entry.endedUntilMs !== null) times.push(entry.endedUntilMs);
  const later = times.filter((time) => time > now);
  return later.length === 0 ? null : Math.min(...later);
}
