/**
 * @module
 * The retail price a traveller pays: the upstream's `recommendedRetail`, or the partner's markup over its
 * wholesale `price` with a rounding rule, in whole roubles where the account settles `wholeRubOnly`.
 * The wholesale price goes in here and never comes out anywhere else.
 */
import {
  applyMarkup,
  type NonNegativeMoney,
  type Offer,
  type Settlement,
  toWholeRub,
} from '@esim-embed/shared';
import type { PricingRule } from '../config/pricing-rule';

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
