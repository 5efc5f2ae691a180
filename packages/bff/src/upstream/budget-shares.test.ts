import { describe, expect, it } from 'vitest';
import { budgetShares, DEFAULT_SHARE_PERCENTS, MIN_ADDRESS_CALLS, MIN_SESSION_CALLS } from './budget-shares';

describe('budgetShares', () => {
  it('splits a key of 600 a minute shared by three widgets', () => {
    expect(budgetShares(600, 3)).toEqual({
      limit: 600,
      background: 120,
      backgroundCeiling: 480,
      address: 60,
      session: 30,
      widget: 300,
    });
  });

  it('gives a lone widget the whole key, and large keys their percentages', () => {
    expect(budgetShares(6_000, 1)).toMatchObject({
      widget: 6_000,
      address: 600,
      session: 300,
      background: 1_200,
    });
  });

  it('keeps a purchase possible on a small key: floors for a session and an address, never above the key', () => {
    expect(budgetShares(120, 2)).toMatchObject({
      address: MIN_ADDRESS_CALLS,
      session: MIN_SESSION_CALLS,
      widget: 60,
      background: 24,
      backgroundCeiling: 96,
    });
    expect(budgetShares(10, 1)).toMatchObject({
      address: 10,
      session: 10,
      background: 2,
      backgroundCeiling: 8,
    });
  });

  it('follows the configured percentages', () => {
    const shares = budgetShares(1_000, 4, {
      ...DEFAULT_SHARE_PERCENTS,
      backgroundPercent: 5,
      addressPercent: 25,
      widgetPercent: 40,
    });
    expect(shares).toMatchObject({ background: 50, backgroundCeiling: 950, address: 250, widget: 400 });
  });
});
