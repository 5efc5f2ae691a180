/**
 * @module
 * The retail price a traveller pays: the upstream's `recommendedRetail`, or the partner's markup over its
 * wholesale `price` with a rounding rule, in whole roubles where the account settles `wholeRubOnly`.
 * The wholesale price goes in here and never comes out anywhere else.
 */
import {
  applyMarkup,
  type MarkupRounding,
  type NonNegativeMoney,
  type Offer,
  type Settlement,
  toWholeRub,
} from '@esim-embed/shared';
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
    rounding: z.enum(['none', 'whole', 'ninety_nine'] satisfies MarkupRounding[]).default('none'),
  }),
]);
export type PricingRule = z.infer<typeof PricingRuleSchema>;

/** The default rule: the upstream's recommended retail price. */
export const DEFAULT_PRICING_RULE: PricingRule = { kind: 'recommended_retail' };

/** What pricing needs of the account's settlement (from `GET /capabilities`). */
export type PricingSettlement = Pick<Settlement, 'wholeRubOnly'>;

/**
 * The retail price of an offer under a rule, in the offer's currency, never negative and never below the
 * wholesale price for a markup. With `wholeRubOnly`, a rouble price is always a whole number of roubles
 * (rounded up, so the partner never sells below its rule). The markup arithmetic is the shared
 * `applyMarkup`, the same the widget would use.
 *
 * @example
 * retailPrice(offer, { kind: 'markup', percent: 25, rounding: 'whole' }, { wholeRubOnly: true });
 */
export function retailPrice(
  offer: Offer,
  rule: PricingRule,
  settlement: PricingSettlement,
): NonNegativeMoney {
  if (rule.kind === 'markup') {
    return applyMarkup(offer.price, rule.percent, rule.rounding, { wholeRubOnly: settlement.wholeRubOnly });
  }
  const retail = offer.recommendedRetail;
  if (settlement.wholeRubOnly && retail.currency === 'RUB') {
    return { amountMinor: toWholeRub(retail.amountMinor), currency: retail.currency };
  }
  return { amountMinor: retail.amountMinor, currency: retail.currency };
}
