/**
 * @module
 * The retail price a traveller pays: the upstream's `recommendedRetail`, or the partner's markup over its
 * wholesale `price` with a rounding rule, in whole roubles where the account settles `wholeRubOnly`.
 * The wholesale price goes in here and never comes out anywhere else.
 */
import type { NonNegativeMoney, Offer, Settlement } from '@esim-embed/shared';
import { z } from 'zod';

/**
 * A widget's pricing rule. `recommended_retail` shows the upstream's recommended retail price;
 * `markup` adds `percent` (0..500) to the wholesale price and rounds: `none` (to the minor unit, up),
 * `whole` (up to a whole currency unit), `ninety_nine` (up to the next price ending in .99, or in 9 whole
 * units where only whole roubles are allowed: 512.40 ₽ → 519 ₽).
 */
export const PricingRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('recommended_retail') }),
  z.strictObject({
    kind: z.literal('markup'),
    percent: z.number().min(0).max(500),
    rounding: z.enum(['none', 'whole', 'ninety_nine']).default('none'),
  }),
]);
export type PricingRule = z.infer<typeof PricingRuleSchema>;

/** The default rule: the upstream's recommended retail price. */
export const DEFAULT_PRICING_RULE: PricingRule = { kind: 'recommended_retail' };

/** What pricing needs of the account's settlement (from `GET /capabilities`). */
export type PricingSettlement = Pick<Settlement, 'wholeRubOnly'>;

/** Minor units per whole unit of every settlement currency (RUB kopecks, USD cents). */
const MINOR_PER_UNIT = 100;

/**
 * The retail price of an offer under a rule, in the offer's currency, never negative and never below the
 * wholesale price for a markup. With `wholeRubOnly`, a rouble price is always a whole number of roubles
 * (rounded up, so the partner never sells below its rule).
 *
 * @example
 * retailPrice(offer, { kind: 'markup', percent: 25, rounding: 'whole' }, { wholeRubOnly: true });
 */
export function retailPrice(
  offer: Offer,
  rule: PricingRule,
  settlement: PricingSettlement,
): NonNegativeMoney {
  const basis = rule.kind === 'recommended_retail' ? offer.recommendedRetail : offer.price;
  const wholeOnly = settlement.wholeRubOnly && basis.currency === 'RUB';
  let amount = basis.amountMinor;
  if (rule.kind === 'markup') {
    amount = markedUp(amount, rule.percent);
    if (rule.rounding === 'whole') amount = roundUpTo(amount, MINOR_PER_UNIT);
    if (rule.rounding === 'ninety_nine')
      amount = wholeOnly ? endingInNine(amount) : endingInNinetyNine(amount);
  }
  if (wholeOnly) amount = roundUpTo(amount, MINOR_PER_UNIT);
  return { amountMinor: Math.max(0, amount), currency: basis.currency };
}

/** `amountMinor * (1 + percent / 100)` rounded up to a minor unit, without float noise (1.1 * 100 = 110.00000000000001). */
function markedUp(amountMinor: number, percent: number): number {
  const exact = (amountMinor * (100 + percent)) / 100;
  return Math.ceil(Number(exact.toFixed(6)));
}

function roundUpTo(amount: number, step: number): number {
  return Math.ceil(amount / step) * step;
}

/** The smallest amount ≥ `amount` whose minor part is 99 (4.20 → 4.99, 5.00 → 5.99, 4.99 → 4.99). */
function endingInNinetyNine(amount: number): number {
  const units = Math.floor(amount / MINOR_PER_UNIT);
  const candidate = units * MINOR_PER_UNIT + 99;
  return candidate >= amount ? candidate : candidate + MINOR_PER_UNIT;
}

/** The smallest whole amount ≥ `amount` whose last whole digit is 9 (512.40 → 519, 519.00 → 519). */
function endingInNine(amount: number): number {
  const units = Math.ceil(amount / MINOR_PER_UNIT);
  const nines = units % 10 === 9 ? units : units + ((9 - (units % 10) + 10) % 10);
  return nines * MINOR_PER_UNIT;
}
