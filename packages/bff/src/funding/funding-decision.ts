/**
 * @module
 * Whether the partner can fund one more order, decided from what the contract lets us know — the account's
 * status, its single-order and monthly limits, its available balance — less what this BFF already promised.
 * Refusals carry the contract's codes and `stage: 'before_payment'`: nobody was charged. No amounts are put in
 * the error: wholesale prices and the partner's balance never reach a browser.
 */
import type { Account, NonNegativeMoney } from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { HeldFunds } from './reservation-ledger';

/** What the refusals tell the widget: the traveller was not charged, another plan or later may work. */
const BEFORE_PAYMENT = { stage: 'before_payment' } as const;

/** The refusal for ordering `wholesale` on `account` with `held` already promised, or null when it can be funded. */
export function fundingRefusal(
  account: Pick<Account, 'status' | 'limits' | 'balance'>,
  wholesale: NonNegativeMoney,
  held: HeldFunds,
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

/** The largest wholesale price one order may have on `account` in `currency`, or null for no limit. */
export function singleOrderLimit(
  account: Pick<Account, 'limits'> | null,
  currency: NonNegativeMoney['currency'],
): number | null {
  const single = account?.limits.singleOrder ?? null;
  return single !== null && single.currency === currency ? single.amountMinor : null;
}
