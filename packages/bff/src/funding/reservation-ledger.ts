/**
 * @module
 * The reservation ledger: what this BFF has promised out of the partner's prepaid balance to checkouts that
 * are still open (awaiting payment or being placed), kept in the store so that every instance sees every
 * promise. One record per upstream account, changed only by compare-and-set: two instances can never both
 * promise the last of the balance. A hold is firm (paid: `direct`, confirmed), unpaid (a checkout awaiting the
 * partner's payment, with the address and session that opened it) or paying (an unpaid hold whose payment the
 * partner started: for a short while it is kept as a firm one is, and still counted against its opener's caps;
 * declined, or its time up, it is unpaid again until its own end). The sums tell them apart, so that unpaid
 * holds never stand in a paying traveller's way (docs/payments.md).
 */
import { CurrencySchema, type NonNegativeMoney } from '@esim-embed/shared';
import { z } from 'zod';
import { ApiError } from '../errors';
import { STORE_KEYS, type Store, type Versioned } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';

/**
 * How long a settled hold keeps counting: until every instance has read the account again after the order
 * was placed (the upstream's own `reserved` then covers it), with room for a stale read served in an outage.
 */
export const SETTLED_HOLD_MS = 2 * 60_000;
/** Compare-and-set rounds of one change before it gives up (each after a short random pause). */
const CHANGE_ROUNDS = 40;
/** How long the ledger record outlives its last change. */
const LEDGER_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The version of the ledger record this release writes (records without one are version 1; version 2 added
 * `unpaidBy`, version 3 `payment`).
 */
const LEDGER_SCHEMA_VERSION = 3;

const HoldSchema = z.looseObject({
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
type Hold = z.infer<typeof HoldSchema>;

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

/**
 * Read with defaults, so a record written by an earlier release still parses, and loose, so fields a newer
 * release added survive this one's compare-and-set (record-fixtures.test.ts reads earlier releases' records).
 */
const LedgerSchema = z.looseObject({
  schemaVersion: z.int().min(1).default(LEDGER_SCHEMA_VERSION),
  holds: z.record(z.string(), HoldSchema).default({}),
  /** Wholesale spend of the orders this BFF placed, per settlement currency and month (`2026-11:USD`). */
  monthlySpend: z.record(z.string(), z.int().min(0)).default({}),
});
type Ledger = z.infer<typeof LedgerSchema>;

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

const monthOf = (ms: number, currency: string) => `${new Date(ms).toISOString().slice(0, 7)}:${currency}`;

/** What a hold is at `now`: firm, paying (a payment in progress) or unpaid; null when it no longer counts. */
type HoldKind = 'firm' | 'paying' | 'unpaid';
function kindOf(hold: Hold, now: number): HoldKind | null {
  if (hold.holdUntilMs <= now) return null;
  if (hold.unpaidBy === null) return 'firm';
  if (hold.payment === null) return 'unpaid';
  if (hold.payment.untilMs > now) return 'paying';
  return hold.payment.unpaidUntilMs > now ? 'unpaid' : null;
}

/** What a hold counts as at `now`, seen from an account read made at `readAtMs`; null when it does not count. */
function counting(hold: Hold, now: number, readAtMs: number): HoldKind | null {
  if (hold.settledAtMs !== null && hold.settledAtMs < readAtMs) return null;
  return kindOf(hold, now);
}

/** When an unpaid hold (or one whose payment runs) stops counting as unpaid: its own end. */
const unpaidEnd = (hold: Hold) => hold.payment?.unpaidUntilMs ?? hold.holdUntilMs;

/** A hold whose payment ended (declined, abandoned) made unpaid again: same holder, its own end. */
function unpaidAgain(hold: Hold): void {
  hold.holdUntilMs = unpaidEnd(hold);
  hold.payment = null;
}

/** The {@link ReservationLedger} of `accountKey` in `store`. */
export function createReservationLedger(
  store: Store,
  accountKey: string,
  now: () => number = Date.now,
): ReservationLedger {
  const key = STORE_KEYS.fundingLedger(accountKey);

  const parse = (stored: Versioned | null): Ledger =>
    LedgerSchema.parse(stored === null ? {} : JSON.parse(stored.value));

  /** This instance's changes, one after another: its own checkouts never race each other for the record. */
  let queue: Promise<unknown> = Promise.resolve();
  function change(edit: (ledger: Ledger, time: number) => boolean): Promise<boolean> {
    const next = queue.then(() => changeNow(edit));
    queue = next.catch(() => undefined);
    return next;
  }

  /** Apply `edit` by compare-and-set (dropping holds that no longer count); false from `edit`: nothing to write. */
  async function changeNow(edit: (ledger: Ledger, time: number) => boolean): Promise<boolean> {
    const outcome = await versionedUpdate(
      storeSlot(store, key, LEDGER_RETENTION_MS),
      (stored) => {
        const ledger = parse(stored);
        const time = now();
        if (!edit(ledger, time)) return leaveValue(false);
        for (const [id, hold] of Object.entries(ledger.holds)) {
          const settledLongAgo = hold.settledAtMs !== null && hold.settledAtMs + SETTLED_HOLD_MS <= time;
          const kind = kindOf(hold, time);
          if (kind === null || settledLongAgo) delete ledger.holds[id];
          // A payment whose time is up (abandoned): unpaid again, as it was.
          else if (kind === 'unpaid' && hold.payment !== null) unpaidAgain(hold);
        }
        const currentMonths = new Set([monthOf(time, 'RUB'), monthOf(time, 'USD')]);
        for (const month of Object.keys(ledger.monthlySpend)) {
          if (!currentMonths.has(month)) delete ledger.monthlySpend[month];
        }
        return writeValue(JSON.stringify({ ...ledger, schemaVersion: LEDGER_SCHEMA_VERSION }), true);
      },
      { rounds: CHANGE_ROUNDS },
    );
    if (outcome.kind === 'written' || outcome.kind === 'left') return outcome.result;
    // Busy beyond reason: refused as "try again in a moment" (never kept as an idempotent answer).
    throw new ApiError('rate_limited', {
      retryAfterSeconds: 1,
      params: { reason: 'busy' },
      cause: new Error(`the funding ledger ${accountKey} kept changing`),
    });
  }

  function sum(
    ledger: Ledger,
    currency: string,
    readAtMs: number,
    except?: string,
    holder: UnpaidHolder | null = null,
  ): HeldFunds {
    const time = now();
    const none = (): HolderHolds => ({ count: 0, firstEndsAtMs: null });
    const held: HeldFunds = {
      amountMinor: 0,
      count: 0,
      firmMinor: 0,
      unpaidMinor: 0,
      unpaidCount: 0,
      payingMinor: 0,
      ofAddress: none(),
      ofSession: none(),
      paymentsOfAddress: none(),
      paymentsOfSession: none(),
      payments: none(),
      spentThisMonthMinor: ledger.monthlySpend[monthOf(time, currency)] ?? 0,
    };
    const add = (holds: HolderHolds, endsAtMs: number) => {
      holds.count += 1;
      holds.firstEndsAtMs = Math.min(holds.firstEndsAtMs ?? endsAtMs, endsAtMs);
    };
    for (const [id, hold] of Object.entries(ledger.holds)) {
      const kind = id === except ? null : counting(hold, time, readAtMs);
      if (kind === null) continue;
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
      if (hold.currency !== currency) continue;
      held.amountMinor += hold.amountMinor;
      held.count += 1;
      if (kind !== 'unpaid') held.firmMinor += hold.amountMinor;
      if (kind !== 'firm') {
        held.unpaidMinor += hold.amountMinor;
        held.unpaidCount += 1;
      }
      if (kind === 'paying') held.payingMinor += hold.amountMinor;
    }
    return held;
  }

  return {
    async held(currency, accountReadAtMs) {
      return sum(parse(await store.get(key)), currency, accountReadAtMs);
    },
    async hold(checkoutId, request, approve, accountReadAtMs) {
      const { amount, holdUntilMs, unpaidBy } = request;
      await change((ledger, time) => {
        const existing = ledger.holds[checkoutId];
        // The same checkout again (a retried or resumed create, a second confirm): one hold, never two, and an
        // unpaid one never renewed. A firm hold asked for again keeps the later expiry.
        if (existing !== undefined) {
          if (unpaidBy !== null) return false;
          if (existing.unpaidBy === null && existing.holdUntilMs > time) {
            if (existing.holdUntilMs >= holdUntilMs) return false;
            existing.holdUntilMs = holdUntilMs;
            return true;
          }
        }
        approve(sum(ledger, amount.currency, accountReadAtMs, checkoutId, unpaidBy));
        ledger.holds[checkoutId] = {
          amountMinor: amount.amountMinor,
          currency: amount.currency,
          holdUntilMs,
          settledAtMs: null,
          unpaidBy,
          payment: null,
        };
        return true;
      });
    },
    async startPayment(checkoutId, request, approve, accountReadAtMs) {
      const { amount, untilMs, attempt } = request;
      return await change((ledger, time) => {
        const existing = ledger.holds[checkoutId];
        const kind = existing === undefined ? null : kindOf(existing, time);
        // Paid (confirmed, placed; or made firm by an earlier release's payment start), or a payment running: the
        // hold stays as it is — a payment started again is neither renewed nor counted twice.
        if (existing?.settledAtMs != null || kind === 'firm' || kind === 'paying') return false;
        // The same holder as the unpaid hold; its own end is where a declined or abandoned payment returns to
        // (a hold that ended has none left: it goes when the payment does).
        const unpaid = kind === 'unpaid' ? existing : undefined;
        const holder = unpaid?.unpaidBy ?? request.holder;
        const unpaidUntilMs = unpaid === undefined ? time : unpaidEnd(unpaid);
        approve(sum(ledger, amount.currency, accountReadAtMs, checkoutId, holder));
        ledger.holds[checkoutId] = {
          amountMinor: amount.amountMinor,
          currency: amount.currency,
          holdUntilMs: Math.max(untilMs, unpaidUntilMs),
          settledAtMs: null,
          unpaidBy: holder,
          payment: { untilMs, unpaidUntilMs, attempt },
        };
        return true;
      });
    },
    async endPayment(checkoutId, attempt) {
      return await change((ledger, time) => {
        const existing = ledger.holds[checkoutId];
        // Only a hold still not paid: a confirmed one is firm whatever a late decline says.
        if (existing?.payment == null || existing.unpaidBy === null || existing.payment.attempt > attempt)
          return false;
        if (existing.payment.unpaidUntilMs > time) unpaidAgain(existing);
        else delete ledger.holds[checkoutId];
        return true;
      });
    },
    async extend(checkoutId, holdUntilMs) {
      await change((ledger) => {
        const existing = ledger.holds[checkoutId];
        if (existing === undefined || existing.settledAtMs !== null) return false;
        if (existing.unpaidBy === null && existing.holdUntilMs >= holdUntilMs) return false;
        existing.holdUntilMs = Math.max(existing.holdUntilMs, holdUntilMs);
        existing.unpaidBy = null;
        existing.payment = null;
        return true;
      });
    },
    async settle(checkoutId, atMs) {
      return await change((ledger) => {
        const existing = ledger.holds[checkoutId];
        if (existing === undefined || existing.settledAtMs !== null) return false;
        existing.settledAtMs = atMs;
        existing.holdUntilMs = Math.max(existing.holdUntilMs, atMs + SETTLED_HOLD_MS);
        existing.payment = null;
        const month = monthOf(atMs, existing.currency);
        ledger.monthlySpend[month] = (ledger.monthlySpend[month] ?? 0) + existing.amountMinor;
        return true;
      });
    },
    async release(checkoutId) {
      await change((ledger) => {
        if (ledger.holds[checkoutId] === undefined) return false;
        delete ledger.holds[checkoutId];
        return true;
      });
    },
  };
}
