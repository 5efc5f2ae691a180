/**
 * @module
 * The reservation ledger: what this BFF has promised out of the partner's prepaid balance to checkouts that
 * are still open (awaiting payment or being placed), kept in the store so that every instance sees every
 * promise. One record per upstream account, changed only by compare-and-set: two instances can never both
 * promise the last of the balance.
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

/** The version of the ledger record this release writes (records without one are version 1). */
const LEDGER_SCHEMA_VERSION = 1;

const HoldSchema = z.looseObject({
  amountMinor: z.int().min(0),
  currency: CurrencySchema,
  /** After this (ms since the epoch) the hold counts no more: a safety net for a release that was lost. */
  holdUntilMs: z.number(),
  /** When the order was placed upstream; the hold counts until an account read newer than this. */
  settledAtMs: z.number().nullable().default(null),
});
type Hold = z.infer<typeof HoldSchema>;

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

/** What the open checkouts hold, as a funding decision sees it. */
export interface HeldFunds {
  amountMinor: number;
  /** How many checkouts hold it. */
  count: number;
  /** Wholesale spend of the orders this BFF placed this month (a lower bound of the account's). */
  spentThisMonthMinor: number;
}

/** The ledger of one upstream account. */
export interface ReservationLedger {
  /** What open checkouts hold in `currency`, seen from an account read made at `accountReadAtMs`. */
  held(currency: NonNegativeMoney['currency'], accountReadAtMs: number): Promise<HeldFunds>;
  /**
   * Hold `amount` for `checkoutId` if `approve` (given what the others hold) does not throw; atomic against
   * every other instance. Holding again for the same checkout keeps one hold (its expiry moved to the later).
   */
  hold(
    checkoutId: string,
    amount: NonNegativeMoney,
    holdUntilMs: number,
    approve: (others: HeldFunds) => void,
    accountReadAtMs: number,
  ): Promise<void>;
  /** Keep a checkout's hold until `holdUntilMs` (a confirmed checkout waits for its placement). */
  extend(checkoutId: string, holdUntilMs: number): Promise<void>;
  /** The order was placed: the hold counts until the account is read again; true when this call settled it. */
  settle(checkoutId: string, atMs: number): Promise<boolean>;
  /** The checkout ended without an order: its hold is gone. */
  release(checkoutId: string): Promise<void>;
}

const monthOf = (ms: number, currency: string) => `${new Date(ms).toISOString().slice(0, 7)}:${currency}`;

/** The holds that still count at `now`, seen from an account read made at `readAtMs`. */
function counting(hold: Hold, now: number, readAtMs: number): boolean {
  if (hold.holdUntilMs <= now) return false;
  return hold.settledAtMs === null || hold.settledAtMs >= readAtMs;
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
          if (hold.holdUntilMs <= time || settledLongAgo) delete ledger.holds[id];
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

  function sum(ledger: Ledger, currency: string, readAtMs: number, except?: string): HeldFunds {
    const time = now();
    let amountMinor = 0;
    let count = 0;
    for (const [id, hold] of Object.entries(ledger.holds)) {
      if (id === except || hold.currency !== currency || !counting(hold, time, readAtMs)) continue;
      amountMinor += hold.amountMinor;
      count += 1;
    }
    return { amountMinor, count, spentThisMonthMinor: ledger.monthlySpend[monthOf(time, currency)] ?? 0 };
  }

  return {
    async held(currency, accountReadAtMs) {
      return sum(parse(await store.get(key)), currency, accountReadAtMs);
    },
    async hold(checkoutId, amount, holdUntilMs, approve, accountReadAtMs) {
      await change((ledger) => {
        const existing = ledger.holds[checkoutId];
        if (existing !== undefined) {
          // The same checkout again (a retried or resumed create): one hold, never two.
          if (existing.holdUntilMs >= holdUntilMs) return false;
          existing.holdUntilMs = holdUntilMs;
          return true;
        }
        approve(sum(ledger, amount.currency, accountReadAtMs, checkoutId));
        ledger.holds[checkoutId] = {
          amountMinor: amount.amountMinor,
          currency: amount.currency,
          holdUntilMs,
          settledAtMs: null,
        };
        return true;
      });
    },
    async extend(checkoutId, holdUntilMs) {
      await change((ledger) => {
        const existing = ledger.holds[checkoutId];
        if (existing === undefined || existing.settledAtMs !== null || existing.holdUntilMs >= holdUntilMs) {
          return false;
        }
        existing.holdUntilMs = holdUntilMs;
        return true;
      });
    },
    async settle(checkoutId, atMs) {
      return await change((ledger) => {
        const existing = ledger.holds[checkoutId];
        if (existing === undefined || existing.settledAtMs !== null) return false;
        existing.settledAtMs = atMs;
        existing.holdUntilMs = Math.max(existing.holdUntilMs, atMs + SETTLED_HOLD_MS);
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
