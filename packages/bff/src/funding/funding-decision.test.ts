/**
 * The funding decisions, each cap on its own: what a paying traveller leaves (firm holds and payments in progress
 * only), when one more checkout awaiting payment may hold money — the session's and the address's open holds not
 * yet paid, the account's count of them, their share of what is left to spend (balance and monthly limit), the
 * first hold that always fits — and when the partner may start one more payment (the payment caps).
 */
import type { Account } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import {
  firmHolds,
  fundingRefusal,
  type PaymentHoldLimits,
  paymentHoldRefusal,
  type UnpaidHoldLimits,
  unpaidHoldRefusal,
} from './funding-decision';
import type { HeldFunds } from './reservation-ledger';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' as const });
const NOW = Date.parse('2026-11-26T09:00:00Z');

function account(balanceMinor: number, monthlyMinor: number | null = null) {
  return {
    status: 'active',
    limits: { singleOrder: null, monthlySpend: monthlyMinor === null ? null : usd(monthlyMinor) },
    balance: { balance: usd(balanceMinor), availableBalance: usd(balanceMinor) },
  } as unknown as Pick<Account, 'status' | 'limits' | 'balance'>;
}

/** What is held: `payingMinor` (payments in progress) is part of both `firmMinor` and `unpaidMinor`. */
function held(parts: Partial<HeldFunds> = {}): HeldFunds {
  const firmMinor = parts.firmMinor ?? 0;
  const unpaidMinor = parts.unpaidMinor ?? 0;
  const none = { count: 0, firstEndsAtMs: null };
  return {
    amountMinor: firmMinor + unpaidMinor - (parts.payingMinor ?? 0),
    count: 0,
    firmMinor,
    unpaidMinor,
    unpaidCount: parts.unpaidCount ?? (unpaidMinor > 0 ? 1 : 0),
    payingMinor: 0,
    ofAddress: none,
    ofSession: none,
    paymentsOfAddress: none,
    paymentsOfSession: none,
    payments: none,
    spentThisMonthMinor: 0,
    ...parts,
  };
}

const limits: UnpaidHoldLimits = { perAddress: 3, perSession: 2, share: 0.5, maxOpen: 10 };
const paymentLimits: PaymentHoldLimits = { perAddress: 2, perSession: 1, maxOpen: 5 };

/** The refusal as the envelope carries it (code, params, Retry-After), or null. */
function refusal(error: ApiError | null) {
  return error === null
    ? null
    : { code: error.code, params: error.params, retryAfterSeconds: error.retryAfterSeconds };
}

describe('a paying traveller', () => {
  it('leaves only the firm holds: unpaid ones never refuse it', () => {
    const holds = held({ firmMinor: 100, unpaidMinor: 9_800 });
    // Counting every hold, a $3.99 order no longer fits in $100.00 …
    expect(fundingRefusal(account(10_000), usd(399), holds)?.code).toBe('insufficient_balance');
    // … but a paying traveller leaves only the firm $1.00.
    expect(fundingRefusal(account(10_000), usd(399), firmHolds(holds))).toBeNull();
    // The monthly limit likewise.
    expect(fundingRefusal(account(1_000_000, 10_000), usd(399), firmHolds(holds))).toBeNull();
    expect(fundingRefusal(account(1_000_000, 10_000), usd(399), holds)?.code).toBe('monthly_limit_exceeded');
  });

  it('is still refused when the firm holds leave too little', () => {
    expect(fundingRefusal(account(500), usd(399), firmHolds(held({ firmMinor: 200 })))).not.toBeNull();
  });
});

describe('an unpaid hold', () => {
  it('is refused once its session has its cap of open unpaid holds, until the first of them ends', () => {
    const holds = held({ ofSession: { count: 2, firstEndsAtMs: NOW + 42_500 } });
    expect(refusal(unpaidHoldRefusal(account(1_000_000), usd(399), holds, limits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'unpaid_checkouts', scope: 'session', limit: 2 },
      retryAfterSeconds: 43,
    });
    const under = held({ ofSession: { count: 1, firstEndsAtMs: NOW + 1_000 } });
    expect(unpaidHoldRefusal(account(1_000_000), usd(399), under, limits, NOW)).toBeNull();
  });

  it('is refused once its address has its cap of open unpaid holds, whatever the sessions', () => {
    const holds = held({ ofAddress: { count: 3, firstEndsAtMs: NOW + 5_000 } });
    expect(refusal(unpaidHoldRefusal(account(1_000_000), usd(399), holds, limits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'unpaid_checkouts', scope: 'address', limit: 3 },
      retryAfterSeconds: 5,
    });
    const under = held({ ofAddress: { count: 2, firstEndsAtMs: NOW + 5_000 } });
    expect(unpaidHoldRefusal(account(1_000_000), usd(399), under, limits, NOW)).toBeNull();
  });

  it('is refused once the account has its cap of open unpaid holds', () => {
    const holds = held({ unpaidMinor: 100, unpaidCount: 10 });
    expect(refusal(unpaidHoldRefusal(account(1_000_000), usd(399), holds, limits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'unpaid_checkouts', scope: 'account', limit: 10 },
      retryAfterSeconds: 30,
    });
    const under = held({ unpaidMinor: 100, unpaidCount: 9 });
    expect(unpaidHoldRefusal(account(1_000_000), usd(399), under, limits, NOW)).toBeNull();
  });

  it('takes together at most the share of the balance the firm holds leave', () => {
    // $100.00 less $20.00 firm: unpaid holds may take $40.00 together.
    const fits = held({ firmMinor: 2_000, unpaidMinor: 3_601 });
    expect(unpaidHoldRefusal(account(10_000), usd(399), fits, limits, NOW)).toBeNull();
    const over = held({ firmMinor: 2_000, unpaidMinor: 3_602 });
    expect(refusal(unpaidHoldRefusal(account(10_000), usd(399), over, limits, NOW))).toEqual({
      code: 'insufficient_balance',
      params: { stage: 'before_payment', held: 'unpaid' },
      retryAfterSeconds: undefined,
    });
  });

  it('takes together at most the share of the monthly limit left, with the monthly code when that is shorter', () => {
    // $100.00 a month, $30.00 placed, $10.00 firm: $60.00 left, of which unpaid holds may take $30.00.
    const holds = (unpaidMinor: number) =>
      held({ firmMinor: 1_000, unpaidMinor, spentThisMonthMinor: 3_000 });
    expect(unpaidHoldRefusal(account(1_000_000, 10_000), usd(399), holds(2_601), limits, NOW)).toBeNull();
    expect(
      refusal(unpaidHoldRefusal(account(1_000_000, 10_000), usd(399), holds(2_602), limits, NOW)),
    ).toEqual({
      code: 'monthly_limit_exceeded',
      params: { stage: 'before_payment', limit: 'monthly_spend', held: 'unpaid' },
      retryAfterSeconds: undefined,
    });
  });

  it('always fits as the first one when the order can be funded, so a small store still sells', () => {
    // A $5.00 account and a $3.99 plan: more than half of it, yet the first unpaid hold is allowed …
    expect(unpaidHoldRefusal(account(500), usd(399), held(), limits, NOW)).toBeNull();
    // … a second is not …
    expect(unpaidHoldRefusal(account(500), usd(50), held({ unpaidMinor: 399 }), limits, NOW)?.code).toBe(
      'insufficient_balance',
    );
    // … and the first still needs the money, less the firm holds.
    expect(unpaidHoldRefusal(account(500), usd(399), held({ firmMinor: 200 }), limits, NOW)?.code).toBe(
      'insufficient_balance',
    );
  });

  it('is refused as any order is when the account is not active', () => {
    const blocked = { ...account(1_000_000), status: 'blocked' } as Parameters<typeof unpaidHoldRefusal>[0];
    expect(unpaidHoldRefusal(blocked, usd(399), held(), limits, NOW)).toBeInstanceOf(ApiError);
  });

  it('leaves the payments in progress, and counts them once in the share, with the unpaid holds', () => {
    // $100.00, $20.00 of it a payment in progress: $80.00 to fund the order from …
    const paying = held({ firmMinor: 2_000, unpaidMinor: 2_000, payingMinor: 2_000, unpaidCount: 1 });
    expect(refusal(unpaidHoldRefusal(account(10_000), usd(8_001), paying, limits, NOW))).toEqual({
      code: 'insufficient_balance',
      params: { stage: 'before_payment' },
      retryAfterSeconds: undefined,
    });
    // … and the share is of the whole $100.00 (no firm hold), the payment in it: $30.00 more fits, not $30.01.
    expect(unpaidHoldRefusal(account(10_000), usd(3_000), paying, limits, NOW)).toBeNull();
    expect(refusal(unpaidHoldRefusal(account(10_000), usd(3_001), paying, limits, NOW))).toMatchObject({
      code: 'insufficient_balance',
      params: { stage: 'before_payment', held: 'unpaid' },
    });
  });
});

describe('a payment the partner starts', () => {
  it('is refused once the session or the address that opened its checkout has its cap of payments in progress', () => {
    const ofSession = held({ paymentsOfSession: { count: 1, firstEndsAtMs: NOW + 90_200 } });
    expect(refusal(paymentHoldRefusal(account(1_000_000), usd(399), ofSession, paymentLimits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'payments_in_progress', scope: 'session', limit: 1 },
      retryAfterSeconds: 91,
    });
    const ofAddress = held({ paymentsOfAddress: { count: 2, firstEndsAtMs: NOW + 4_000 } });
    expect(refusal(paymentHoldRefusal(account(1_000_000), usd(399), ofAddress, paymentLimits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'payments_in_progress', scope: 'address', limit: 2 },
      retryAfterSeconds: 4,
    });
    // Its address's unpaid holds are no payments: they do not refuse it.
    const unpaid = held({ ofAddress: { count: 3, firstEndsAtMs: NOW + 4_000 }, unpaidMinor: 1_197 });
    expect(paymentHoldRefusal(account(1_000_000), usd(399), unpaid, paymentLimits, NOW)).toBeNull();
  });

  it('is refused once the account has its cap of payments in progress', () => {
    const holds = held({ payments: { count: 5, firstEndsAtMs: NOW + 600_000 } });
    expect(refusal(paymentHoldRefusal(account(1_000_000), usd(399), holds, paymentLimits, NOW))).toEqual({
      code: 'rate_limited',
      params: { reason: 'payments_in_progress', scope: 'account', limit: 5 },
      retryAfterSeconds: 30,
    });
  });

  it('leaves the firm holds and the other payments in progress, never the unpaid holds', () => {
    const holds = held({ firmMinor: 5_000, unpaidMinor: 9_000, payingMinor: 4_000 });
    expect(paymentHoldRefusal(account(10_000), usd(5_000), holds, paymentLimits, NOW)).toBeNull();
    expect(refusal(paymentHoldRefusal(account(10_000), usd(5_001), holds, paymentLimits, NOW))).toEqual({
      code: 'insufficient_balance',
      params: { stage: 'before_payment' },
      retryAfterSeconds: undefined,
    });
  });
});
