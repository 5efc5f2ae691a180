import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfterMs } from './retry-policy';

describe('backoffDelayMs', () => {
  it('draws uniformly under a ceiling that doubles per retry up to the cap (full jitter)', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy, () => 0.999_999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(1, policy, () => 0.5)).toBe(100);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('reads delta-seconds and HTTP dates, never negative', () => {
    expect(parseRetryAfterMs('3', now)).toBe(3_000);
    expect(parseRetryAfterMs(['7'], now)).toBe(7_000);
    expect(parseRetryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs('', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-1', now)).toBeUndefined();
  });
});
