import { describe, expect, it } from 'vitest';
import type { Plan } from './catalog';
import { comparePlans } from './plan-order';

function plan(offerId: string, amountMinor: number, data: Partial<Plan>): Plan {
  return {
    offerId,
    price: { amountMinor, currency: 'USD' },
    unlimited: false,
    dataMb: null,
    dailyDataMb: null,
    durationDays: 7,
    ...data,
  } as Plan;
}

describe('the one plan ranking', () => {
  const plans = [
    plan('a', 500, { dataMb: 1024 }),
    plan('b', 500, { dataMb: 3072 }),
    plan('c', 900, { unlimited: true }),
    plan('d', 700, { dailyDataMb: 1024, durationDays: 5 }),
    plan('e', 500, { dataMb: 3072, durationDays: 30 }),
  ];

  it('ranks cheapest first, then most data, fewer days, offer id', () => {
    expect([...plans].sort(comparePlans('price')).map((p) => p.offerId)).toEqual(['b', 'e', 'a', 'd', 'c']);
  });

  it('ranks most data first (unlimited, then a day pass by its total), then cheapest', () => {
    expect([...plans].sort(comparePlans('data')).map((p) => p.offerId)).toEqual(['c', 'd', 'b', 'e', 'a']);
  });
});
