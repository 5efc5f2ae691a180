import { describe, expect, it } from 'vitest';
import { ERROR_HANDLING, handlingOf } from '../errors/error-recovery';
import { retryWorth, WidgetApiError, type WidgetErrorCode } from './api-error';

const error = (code: WidgetErrorCode, params: Record<string, unknown> = {}) =>
  new WidgetApiError(code, params);

describe('retryWorth, the one retry decision', () => {
  it('says a create still running elsewhere, a store briefly away and an account not read yet will work a moment later', () => {
    expect(retryWorth(error('idempotency_conflict', { reason: 'in_progress' }))).toBe('moment');
    expect(retryWorth(error('store_unavailable'))).toBe('moment');
    expect(retryWorth(error('upstream_unavailable', { cause: 'account_unreadable' }))).toBe('moment');
  });

  it('says a rate limit and an upstream or BFF down a while pass by themselves, a lost connection once online', () => {
    for (const code of ['rate_limited', 'internal', 'upstream_unavailable'] as const) {
      expect(retryWorth(error(code)), code).toBe('passing');
    }
    expect(retryWorth(error('network_error'))).toBe('connection');
  });

  it('leaves every other error to the traveller', () => {
    expect(retryWorth(error('idempotency_conflict', { reason: 'different_body' }))).toBeNull();
    expect(retryWorth(error('quote_expired'))).toBeNull();
    expect(retryWorth(error('invalid_transition'))).toBeNull();
    expect(retryWorth(error('validation_failed'))).toBeNull();
    expect(retryWorth(new Error('not ours'))).toBeNull();
  });

  it('agrees with what the traveller is offered: an error worth retrying offers a retry', () => {
    const codes = Object.keys(ERROR_HANDLING) as WidgetErrorCode[];
    const worth = codes.filter((code) => retryWorth(error(code)) !== null);
    expect(worth.length).toBeGreaterThan(0);
    for (const code of worth) expect(handlingOf(error(code)).recovery, code).toBe('retry');
    expect(handlingOf(error('idempotency_conflict', { reason: 'in_progress' }))).toEqual({
      message: 'errorMoment',
      recovery: 'retry',
    });
  });
});
