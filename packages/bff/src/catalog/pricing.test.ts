import { type Offer, OfferSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { type PricingRule, PricingRuleSchema } from '../config/pricing-rule';
import { retailPrice } from './pricing';

function offer(wholesaleMinor: number, retailMinor: number, currency: 'RUB' | 'USD'): Offer {
  return OfferSchema.parse({
    id: 'off',
    productId: 'prd',
    price: { amountMinor: wholesaleMinor, currency },
    recommendedRetail: { amountMinor: retailMinor, currency },
    capabilities: {
      topUp: 'guaranteed',
      fiveG: 'supported',
      tethering: 'unknown',
      networks: [],
      networkTypes: [],
    },
    activation: { startsAt: 'purchase', windowDays: null },
    catalogVersion: 1,
    pricingVersion: 'pv1',
  });
}

const markup = (percent: number, rounding: 'none' | 'whole' | 'ninety_nine'): PricingRule =>
  PricingRuleSchema.parse({ kind: 'markup', percent, rounding });

describe('retailPrice', () => {
  it('shows the recommended retail price under the default rule', () => {
    expect(
      retailPrice(offer(300, 499, 'USD'), { kind: 'recommended_retail' }, { wholeRubOnly: false }),
    ).toEqual({
      amountMinor: 499,
      currency: 'USD',
    });
  });

  it('rounds a recommended rouble price up to whole roubles when the account settles wholeRubOnly', () => {
    const rub = offer(30_000, 37_950, 'RUB');
    expect(retailPrice(rub, { kind: 'recommended_retail' }, { wholeRubOnly: true }).amountMinor).toBe(38_000);
    expect(retailPrice(rub, { kind: 'recommended_retail' }, { wholeRubOnly: false }).amountMinor).toBe(
      37_950,
    );
    // wholeRubOnly is about roubles: dollars keep their cents.
    expect(
      retailPrice(offer(300, 499, 'USD'), { kind: 'recommended_retail' }, { wholeRubOnly: true }).amountMinor,
    ).toBe(499);
  });

  it('adds a markup over the wholesale price without float noise', () => {
    expect(retailPrice(offer(1000, 5000, 'USD'), markup(10, 'none'), { wholeRubOnly: false })).toEqual({
      amountMinor: 1100,
      currency: 'USD',
    });
    expect(
      retailPrice(offer(999, 5000, 'USD'), markup(12.5, 'none'), { wholeRubOnly: false }).amountMinor,
    ).toBe(1124);
    expect(retailPrice(offer(0, 5000, 'USD'), markup(500, 'none'), { wholeRubOnly: false }).amountMinor).toBe(
      0,
    );
  });

  it('rounds to whole units and to .99 / …9', () => {
    expect(retailPrice(offer(1000, 0, 'USD'), markup(5, 'whole'), { wholeRubOnly: false }).amountMinor).toBe(
      1100,
    );
    expect(retailPrice(offer(1000, 0, 'USD'), markup(0, 'whole'), { wholeRubOnly: false }).amountMinor).toBe(
      1000,
    );
    expect(
      retailPrice(offer(400, 0, 'USD'), markup(5, 'ninety_nine'), { wholeRubOnly: false }).amountMinor,
    ).toBe(499);
    expect(
      retailPrice(offer(499, 0, 'USD'), markup(0, 'ninety_nine'), { wholeRubOnly: false }).amountMinor,
    ).toBe(499);
    expect(
      retailPrice(offer(500, 0, 'USD'), markup(0, 'ninety_nine'), { wholeRubOnly: false }).amountMinor,
    ).toBe(599);
    // Whole roubles only: .99 kopecks are impossible, so the price ends in 9 roubles.
    expect(
      retailPrice(offer(48_800, 0, 'RUB'), markup(5, 'ninety_nine'), { wholeRubOnly: true }).amountMinor,
    ).toBe(51_900);
    expect(
      retailPrice(offer(51_900, 0, 'RUB'), markup(0, 'ninety_nine'), { wholeRubOnly: true }).amountMinor,
    ).toBe(51_900);
  });

  it('never returns kopecks when wholeRubOnly, whatever the rule', () => {
    for (const percent of [0, 1, 3.3, 17, 33.33, 250]) {
      for (const rounding of ['none', 'whole', 'ninety_nine'] as const) {
        const price = retailPrice(offer(12_345, 0, 'RUB'), markup(percent, rounding), { wholeRubOnly: true });
        expect(price.amountMinor % 100).toBe(0);
        expect(price.amountMinor).toBeGreaterThanOrEqual(12_345);
      }
    }
  });

  it('validates rules: percent 0..500, known roundings, no unknown kinds or keys', () => {
    expect(PricingRuleSchema.parse({ kind: 'markup', percent: 20 })).toEqual({
      kind: 'markup',
      percent: 20,
      rounding: 'none',
    });
    expect(PricingRuleSchema.safeParse({ kind: 'markup', percent: 501, rounding: 'none' }).success).toBe(
      false,
    );
    expect(PricingRuleSchema.safeParse({ kind: 'markup', percent: -1, rounding: 'none' }).success).toBe(
      false,
    );
    expect(PricingRuleSchema.safeParse({ kind: 'markup', percent: 5, rounding: 'up' }).success).toBe(false);
    expect(PricingRuleSchema.safeParse({ kind: 'discount' }).success).toBe(false);
    expect(PricingRuleSchema.safeParse({ kind: 'recommended_retail', percent: 5 }).success).toBe(false);
  });
});
