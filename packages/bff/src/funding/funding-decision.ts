/**
 * @module
 * Whether the partner can fund one more order, decided from what the contract lets us know — the account's
 * status, its single-order and monthly limits, its available balance — less what this BFF already promised;
 * whether one more checkout awaiting payment may hold money (the unpaid caps); and whether the partner may start
 * one more payment (the payment caps). Refusals carry the contract's codes and `stage: 'before_payment'`: nobody
 * was charged. No amounts are put in the error: wholesale prices and the partner's balance never reach a browser.
 */
import type { Account, NonNegativeMoney } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { HeldFunds, HolderHolds } from './reservation-ledger';

/** What the refusals tell the widget: the traveller was not charged, another plan or later may work. */
const BEFORE_PAYMENT = { stage: 'before_payment' } as const;

/** The refusal for ordering `wholesale` on `account` with `held` already promised, or null when it can be funded. */
export function fundingRefusal(
  account: Pick<Account, 'status' | 'limits' | 'balance'>,
  wholesale: NonNegativeMoney,
  held: Pick<HeldFunds, 'amountMinor' | 'spentThisMonthMinor'>,
): ApiError | null {
  if (account.status !== 'active') {
    return new ApiError('account_not_active', { params: { ...BEFORE_PAYMENT } });
  }
  const single = account.limits.singleOrder;
  if (
    single !== null &&
    single.currency === wholesale.currency &&
    wholesale.amountMinor > single.amountMinor
  ) {
    return new ApiError('order_limit_exceeded', { params: { ...BEFORE_PAYMENT, limit: 'single_order' } });
  }
  const monthly = account.limits.monthlySpend;
  if (
    monthly !== null &&
    monthly.currency === wholesale.currency &&
    held.spentThisMonthMinor + held.amountMinor + wholesale.amountMinor > monthly.amountMinor
  ) {
    return new ApiError('monthly_limit_exceeded', { params: { ...BEFORE_PAYMENT, limit: 'monthly_spend' } });
  }
  const available = account.balance.availableBalance;
  if (available.currency !== wholesale.currency) {
    // An offer priced in another currency than the account settles in cannot be paid from this balance.
    return new ApiError('insufficient_balance', { params: { ...BEFORE_PAYMENT, reason: 'currency' } });
  }
  if (available.amountMinor - held.amountMinor < wholesale.amountMinor) {
    return new ApiError('insufficient_balance', { params: { ...BEFORE_PAYMENT } });
  }
  return null;
}

/**
 * What a paying traveller's order must leave: the firm holds and the payments in progress, never the unpaid
 * holds.
 */
export const firmHolds = (held: HeldFunds): HeldFunds => ({ ...held, amountMinor: held.firmMinor });

/** Seconds until the first of `holds` stops counting, at least one. */
const secondsUntilFirstEnds = (holds: HolderHolds, time: number) =>
  Math.max(1, Math.ceil(((holds.firstEndsAtMs ?? time) - time) / 1000));

/** One cap on holds: whose (`scope`), how many are open (and when the first of them ends), how many may be. */
interface HoldCap {
  scope: 'session' | 'address' | 'account';
  holds: HolderHolds;
  cap: number;
}

/** How long an account's full count asks to wait: a moment (the first of many holds to end promises no room). */
const ACCOUNT_RETRY_MS = 30_000;

/** The account's cap on `count` open holds, as {@link capRefusal} takes it. */
const accountCap = (count: number, cap: number, time: number): HoldCap => ({
  scope: 'account',
  holds: { count, firstEndsAtMs: time + ACCOUNT_RETRY_MS },
  cap,
});

/**
 * The refusal of the first of `caps` that is full: `429 rate_limited` with `params.reason` (what is capped),
 * `scope` and `limit`, and a `Retry-After` until the first of its holds ends; null when none is.
 */
function capRefusal(
  reason: 'unpaid_checkouts' | 'payments_in_progress',
  caps: readonly HoldCap[],
  time: number,
): ApiError | null {
  for (const { scope, holds, cap } of caps) {
    if (holds.count >= cap) {
      return new ApiError('rate_limited', {
        params: { reason, scope, limit: cap },
        retryAfterSeconds: secondsUntilFirstEnds(holds, time),
      });
    }
  }
  return null;
}

/** How far checkouts awaiting payment may hold the partner's money (the config's `unpaidHolds`). */
export interface UnpaidHoldLimits {
  /** Unpaid holds one client address (an IPv6 /64) may have open on one account. */
  perAddress: number;
  /** Unpaid holds one session may have open. */
  perSession: number;
  /** The part (0..1) of what paying travellers could still spend that unpaid holds may take together. */
  share: number;
  /** Unpaid holds one account may have open at all. */
  maxOpen: number;
}

/**
 * The refusal of one more unpaid hold of `wholesale`, or null when it may be held. In order: the session's and
 * the address's open holds not yet paid — unpaid, or with a payment in progress — (`rate_limited`, reason
 * `unpaid_checkouts`, `Retry-After` until the first of them ends); the account's funding, less the firm holds and
 * the payments in progress; the account's open holds not yet paid (`rate_limited`); their share of what is left to
 * spend — the first always fits when the order can be funded, so a small store still sells — refused with the
 * code of the room that is short (`insufficient_balance`, `monthly_limit_exceeded`).
 */
export function unpaidHoldRefusal(
  account: Pick<Account, 'status' | 'limits' | 'balance'>,
  wholesale: NonNegativeMoney,
  held: HeldFunds,
  limits: UnpaidHoldLimits,
  time: number,
): ApiError | null {
  const holders = capRefusal(
    'unpaid_checkouts',
    [
      { scope: 'session', holds: held.ofSession, cap: limits.perSession },
      { scope: 'address', holds: held.ofAddress, cap: limits.perAddress },
    ],
    time,
  );
  if (holders !== null) return holders;
  const firm = firmHolds(held);
  const unfunded = fundingRefusal(account, wholesale, firm);
  if (unfunded !== null) return unfunded;
  const open = accountCap(held.unpaidCount, limits.maxOpen, time);
  const full = capRefusal('unpaid_checkouts', [open], time);
  if (full !== null) return full;
  if (held.unpaidCount === 0) return null;
  // Payments in progress are counted once, with the unpaid holds: the room is what the firm holds alone leave.
  const firmOnly = firm.amountMinor - held.payingMinor;
  const balanceRoom = account.balance.availableBalance.amountMinor - firmOnly;
  const monthly = account.limits.monthlySpend;
  const monthlyRoom =
    monthly !== null && monthly.currency === wholesale.currency
      ? monthly.amountMinor - firm.spentThisMonthMinor - firmOnly
      : Number.POSITIVE_INFINITY;
  const room = Math.min(balanceRoom, monthlyRoom);
  if (held.unpaidMinor + wholesale.amountMinor <= limits.share * room) return null;
  return monthlyRoom < balanceRoom
    ? new ApiError('monthly_limit_exceeded', {
        params: { ...BEFORE_PAYMENT, limit: 'monthly_spend', held: 'unpaid' },
      })
    : new ApiError('insufficient_balance', { params: { ...BEFORE_PAYMENT, held: 'unpaid' } });
}

/** How far payments the partner started may hold its money firmly (the config's `paymentHolds`). */
export interface PaymentHoldLimits {
  /** Payments in progress of the checkouts one client address (an IPv6 /64) opened, on one account. */
  perAddress: number;
  /** Payments in progress of the checkouts one session opened. */
  perSession: number;
  /** Payments in progress on one account at all. */
  maxOpen: number;
}

/**
 * The refusal of starting the payment of a checkout of `wholesale` (its hold kept firmly while the payment
 * runs), or null when it may start. In order: the payments in progress of the checkouts its session and its
 * address opened (`rate_limited`, reason `payments_in_progress`, `Retry-After` until the first of them ends); the
 * account's funding, less the firm holds and the other payments in progress (a paying traveller's refusal:
 * nothing is charged); the account's payments in progress (`rate_limited`).
 */
export function paymentHoldRefusal(
  account: Pick<Account, 'status' | 'limits' | 'balance'>,
  wholesale: NonNegativeMoney,
  held: HeldFunds,
  limits: PaymentHoldLimits,
  time: number,
): ApiError | null {
  const holders = capRefusal(
    'payments_in_progress',
    [
      { scope: 'session', holds: held.paymentsOfSession, cap: limits.perSession },
      { scope: 'address', holds: held.paymentsOfAddress, cap: limits.perAddress },
    ],
    time,
  );
  if (holders !== null) return holders;
  const unfunded = fundingRefusal(account, wholesale, firmHolds(held));
  if (unfunded !== null) return unfunded;
  return capRefusal('payments_in_progress', [accountCap(held.payments.count, limits.maxOpen, time)], time);
}
