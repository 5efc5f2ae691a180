/**
 * @module
 * The reservation ledger: what this BFF has promised out of the partner's prepaid balance to checkouts that
 * are still open (awaiting payment or being placed), kept in the store so that every instance sees every
 * promise. One record per upstream account, changed only by compare-and-set: two instances can never both
 * promise the last of the balance. A hold is firm (paid or being paid: `direct`, confirmed) or unpaid (a
 * checkout awaiting the partner's payment, with the address and session that made it), and the sums tell the
 * two apart, so that unpaid holds never stand in a paying traveller's way (docs/payments.md).
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
const LEDGER_SCHEMA_VERSION = 2;

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
});
type Hold = z.infer<typeof HoldSchema>;

/** Who makes an unpaid hold: digests of the client's address (an IPv6 /64) and of its session. */
export type UnpaidHolder = NonNullable<Hold['unpaidBy']>;

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

/** What the open checkouts hold, as a funding decision sees it. */
export interface HeldFunds {
  amountMinor: number;
  /** How many checkouts hold it. */
  count: number;
  /** What firm holds (paid or being paid) hold: the part of `amountMinor` a paying traveller must leave. */
  firmMinor: number;
  /** What unpaid holds hold, and how many they are. */
  unpaidMinor: number;
  unpaidCount: number;
  /** The unpaid holds of the holder asking (none when a firm hold is asked for). */
  ofAddress: HolderHolds;
  ofSession: HolderHolds;
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
  /** Keep a checkout's hold, firm, until `holdUntilMs` (a confirmed checkout waits for its placement). */
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

  function sum(
    ledger: Ledger,
    currency: string,
    readAtMs: number,
    except?: string,
    holder: UnpaidHolder | null = null,
  ): HeldFunds {
    const time = now();
    const held: HeldFunds = {
      amountMinor: 0,
      count: 0,
      firmMinor: 0,
      unpaidMinor: 0,
      unpaidCount: 0,
      ofAddress: { count: 0, firstEndsAtMs: null },
      ofSession: { count: 0, firstEndsAtMs: null },
      spentThisMonthMinor: ledger.monthlySpend[monthOf(time, currency)] ?? 0,
    };
    const add = (holds: HolderHolds, endsAtMs: number) => {
      holds.count += 1;
      holds.firstEndsAtMs = Math.min(holds.firstEndsAtMs ?? endsAtMs, endsAtMs);
    };
    for (const [id, hold] of Object.entries(ledger.holds)) {
      if (id === except || !counting(hold, time, readAtMs)) continue;
      // An address's and a session's unpaid holds are counted in every currency: the caps are on checkouts.
      if (hold.unpaidBy !== null && holder !== null) {
        if (hold.unpaidBy.address === holder.address) add(held.ofAddress, hold.holdUntilMs);
        if (hold.unpaidBy.session === holder.session) add(held.ofSession, hold.holdUntilMs);
      }
      if (hold.currency !== currency) continue;
      held.amountMinor += hold.amountMinor;
      held.count += 1;
      if (hold.unpaidBy === null) held.firmMinor += hold.amountMinor;
      else {
        held.unpaidMinor += hold.amountMinor;
        held.unpaidCount += 1;
      }
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
        };
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
