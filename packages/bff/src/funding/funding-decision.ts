/**
 * @module
 * Whether the partner can fund one more order, decided from what the contract lets us know — the account's
 * status, its single-order and monthly limits, its available balance — less what this BFF already promised;
 * and whether one more checkout awaiting payment may hold money (the unpaid caps). Refusals carry the contract's
 * codes and `stage: 'before_payment'`: nobody was charged. No amounts are put in the error: wholesale prices and
 * the partner's balance never reach a browser.
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

/** What a paying traveller's order must leave: the firm holds only, never the unpaid ones. */
export const firmHolds = (held: HeldFunds): HeldFunds => ({ ...held, amountMinor: held.firmMinor });

/** How far checkouts awaiting payment may hold the partner's money (the config's `unpaidHolds`). */
export interface UnpaidHoldLimits {
  /** Unpaid holds one client address (an IPv6 /64) may have open on one account. */
  perAddress: number;
  /** Unpaid holds one session may have open. */
  perSession: number;
  /** The part (0..1) of what paying travellers could still spend that unpaid holds may take together. */
  share: number;
  /** Unpaid holds one account may have open at all (bounds the ledger record). */
  maxOpen: number;
}

/** Seconds until the first of `holds` stops counting, at least one. */
const secondsUntilFirstEnds = (holds: HolderHolds, time: number) =>
  Math.max(1, Math.ceil(((holds.firstEndsAtMs ?? time) - time) / 1000));

/**
 * The refusal of one more unpaid hold of `wholesale`, or null when it may be held. In order: the session's and
 * the address's open unpaid holds (`rate_limited`, `Retry-After` until the first of them ends); the account's
 * funding, less the firm holds only; the account's open unpaid holds (`rate_limited`); the unpaid share of what
 * is left to spend — the first unpaid hold always fits when the order can be funded, so a small store still
 * sells — refused with the code of the room that is short (`insufficient_balance`, `monthly_limit_exceeded`).
 */
export function unpaidHoldRefusal(
  account: Pick<Account, 'status' | 'limits' | 'balance'>,
  wholesale: NonNegativeMoney,
  held: HeldFunds,
  limits: UnpaidHoldLimits,
  time: number,
): ApiError | null {
  const caps = [
    { scope: 'session', holds: held.ofSession, cap: limits.perSession },
    { scope: 'address', holds: held.ofAddress, cap: limits.perAddress },
  ] as const;
  for (const { scope, holds, cap } of caps) {
    if (holds.count >= cap) {
      return new ApiError('rate_limited', {
        params: { reason: 'unpaid_checkouts', scope, limit: cap },
        retryAfterSeconds: secondsUntilFirstEnds(holds, time),
      });
    }
  }
  const firm = firmHolds(held);
  const unfunded = fundingRefusal(account, wholesale, firm);
  if (unfunded !== null) return unfunded;
  if (held.unpaidCount >= limits.maxOpen) {
    return new ApiError('rate_limited', {
      params: { reason: 'unpaid_checkouts', scope: 'account', limit: limits.maxOpen },
      retryAfterSeconds: 30,
    });
  }
  if (held.unpaidCount === 0) return null;
  const balanceRoom = account.balance.availableBalance.amountMinor - firm.amountMinor;
  const monthly = account.limits.monthlySpend;
  const monthlyRoom =
    monthly !== null && monthly.currency === wholesale.currency
      ? monthly.amountMinor - firm.spentThisMonthMinor - firm.amountMinor
      : Number.POSITIVE_INFINITY;
  const room = Math.min(balanceRoom, monthlyRoom);
  if (held.unpaidMinor + wholesale.amountMinor <= limits.share * room) return null;
  return monthlyRoom < balanceRoom
    ? new ApiError('monthly_limit_exceeded', {
        params: { ...BEFORE_PAYMENT, limit: 'monthly_spend', held: 'unpaid' },
      })
    : new ApiError('insufficient_balance', { params: { ...BEFORE_PAYMENT, held: 'unpaid' } });
}
