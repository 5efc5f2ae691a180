/**
 * @module
 * How plans are ranked, the one rule: the BFF answers a destination's plans cheapest first with it, and the
 * widget re-sorts by price or by data with it, so the two orders never disagree on a tie.
 */
import type { Plan } from './catalog';

/** The orders a traveller can choose. */
export type PlanOrder = 'price' | 'data';

/** A plan's data for ranking: unlimited above any amount, a day pass by its daily data over its validity. */
export function planDataAmount(plan: Plan): number {
  if (plan.unlimited) return Number.MAX_SAFE_INTEGER;
  if (plan.dailyDataMb !== null) return plan.dailyDataMb * plan.durationDays;
  return plan.dataMb ?? 0;
}

/**
 * Compares two plans: cheapest first then most data (`price`), or most data first then cheapest (`data`);
 * then fewer days, then offer id, so the order is stable.
 */
export function comparePlans(order: PlanOrder): (a: Plan, b: Plan) => number {
  return function comparePlansBy(a, b) {
    const byPrice = a.price.amountMinor - b.price.amountMinor;
    const byData = planDataAmount(b) - planDataAmount(a);
    return (
      (order === 'price' ? byPrice || byData : byData || byPrice) ||
      a.durationDays - b.durationDays ||
      a.offerId.localeCompare(b.offerId)
    );
  };
}
