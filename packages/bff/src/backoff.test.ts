import { describe, expect, it } from 'vitest';
import { backoffMs, jitteredBackoffMs } from './backoff';
import { placementBackoffMs } from './checkout/order-placement';
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from './upstream/retry-policy';
import { webhookBackoffMs } from './webhooks/webhook-sender';

describe('the one backoff', () => {
  it('doubles from the first step to the cap; a negative step is the first', () => {
    const backoff = { firstMs: 100, maxMs: 1_000 };
    expect([-1, 0, 1, 2, 3, 4, 10].map((step) => backoffMs(step, backoff))).toEqual([
      100, 100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('draws the jittered wait uniformly below the step', () => {
    const backoff = { firstMs: 100, maxMs: 1_000 };
    expect(jitteredBackoffMs(2, backoff, () => 0)).toBe(0);
    expect(jitteredBackoffMs(2, backoff, () => 0.5)).toBe(200);
    expect(jitteredBackoffMs(2, backoff, () => 0.999_999)).toBe(399);
  });
});

describe("each caller's schedule", () => {
  it('upstream retries: under 150 ms, 300 ms, 600 ms … at most 2 s (the default policy, full jitter)', () => {
    const ceilings = [0, 1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, DEFAULT_RETRY_POLICY, () => 1));
    expect(ceilings).toEqual([150, 300, 600, 1_200, 2_000, 2_000]);
  });

  it('order placement: 1 s after the first postponed attempt, doubling, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(placementBackoffMs)).toEqual([
      1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('webhook deliveries: 10 s after the first failure, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 9, 10, 30].map(webhookBackoffMs)).toEqual([
      10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
  });
});
