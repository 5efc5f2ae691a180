import { DestinationSchema, PlanSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { fixtureSnapshot } from '../../testing/catalog-fixture';
import { PricingRuleSchema } from '../config/pricing-rule';
import { isRegionCode } from './destination-names';
import { indexByDestination, projectDestinations, type RetailPricer } from './destinations';
import { projectPlans } from './plans';
import { retailPrice } from './pricing';

const recommended: RetailPricer = (offer) =>
  retailPrice(offer, { kind: 'recommended_retail' }, { wholeRubOnly: false });

describe('destinations', () => {
  const snapshot = fixtureSnapshot();
  const index = indexByDestination(snapshot);

  it('projects one destination per code with the cheapest retail price and the plan count', () => {
    const destinations = projectDestinations(index, 'en', recommended);
    for (const destination of destinations) DestinationSchema.parse(destination);
    const germany = destinations.find((d) => d.code === 'DE');
    expect(germany).toMatchObject({
      kind: 'country',
      name: 'Germany',
      region: 'europe',
      planCount: 3,
      fromPrice: { amountMinor: 39_900, currency: 'USD' },
    });
    expect(destinations.find((d) => d.code === 'EU')).toMatchObject({
      kind: 'region',
      name: 'Europe',
      region: 'europe',
    });
    expect(destinations.find((d) => d.code === 'XG')).toMatchObject({
      kind: 'region',
      region: 'global',
      flag: '🌐',
    });
    expect(destinations.map((d) => d.code).sort()).toEqual(['DE', 'EU', 'TR', 'XG']);
  });

  it('labels the cheapest price in the locale, in whole roubles where the partner settles so', () => {
    const plain = (text: string | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');
    const inEnglish = projectDestinations(index, 'en', recommended).find((d) => d.code === 'DE');
    expect(inEnglish?.fromPriceLabel).toBe('$399.00');
    const inFrench = projectDestinations(index, 'fr', recommended).find((d) => d.code === 'DE');
    expect(plain(inFrench?.fromPriceLabel)).toBe('399,00 $');
    const roubles: RetailPricer = () => ({ amountMinor: 129_050, currency: 'RUB' });
    const whole = projectDestinations(index, 'ru', roubles, { wholeRubOnly: true });
    expect(plain(whole[0]?.fromPriceLabel)).toBe('1 291 ₽');
    const kopecks = projectDestinations(index, 'ru', roubles, { wholeRubOnly: false });
    expect(plain(kopecks[0]?.fromPriceLabel)).toBe('1 290,50 ₽');
  });

  it('localizes names, sorts by them and keeps search terms in every language', () => {
    const ru = projectDestinations(index, 'ru', recommended);
    expect(ru.map((d) => d.name)).toEqual(['Весь мир', 'Германия', 'Европа', 'Турция']);
    const de = projectDestinations(index, 'de', recommended).find((d) => d.code === 'DE');
    expect(de?.name).toBe('Deutschland');
    expect(de?.searchTerms).toEqual(
      expect.arrayContaining(['DE', 'Germany', 'Германия', 'Alemania', 'Allemagne']),
    );
    const turkey = ru.find((d) => d.code === 'TR');
    expect(turkey?.searchTerms).toEqual(expect.arrayContaining(['Türkiye', 'TR']));
  });

  it('ranks popular destinations from 1 without gaps, others null', () => {
    const destinations = projectDestinations(index, 'en', recommended);
    const ranks = Object.fromEntries(destinations.map((d) => [d.code, d.popularity]));
    expect(ranks).toEqual({ TR: 1, DE: 2, EU: 3, XG: 4 });
  });

  it('tells regions from countries by their code', () => {
    expect(['EU', 'XA', 'XG', 'QZ', 'ZZ'].every(isRegionCode)).toBe(true);
    expect(['DE', 'US', 'QA', 'XK'.slice(0, 1)].some(isRegionCode)).toBe(false);
  });
});

describe('plans', () => {
  const snapshot = fixtureSnapshot();
  const index = indexByDestination(snapshot);

  it('lists a destination’s plans cheapest first with retail prices and the offer’s facts', () => {
    const germany = index.get('DE');
    if (!germany) throw new Error('fixture has Germany');
    const plans = projectPlans(germany.offers, snapshot.productById, 'fr', recommended);
    for (const plan of plans) PlanSchema.parse(plan);
    expect(plans.map((p) => [p.offerId, p.price.amountMinor])).toEqual([
      ['off-de-2', 39_900],
      ['off-de-1', 49_900],
      ['off-de-unl', 89_900],
    ]);
    expect(plans[0]).toMatchObject({
      productId: 'de-1gb',
      destination: { code: 'DE', name: 'Allemagne', flag: 'flag-DE' },
      kind: 'fixed',
      dataMb: 1024,
      unlimited: false,
      durationDays: 7,
      fiveG: 'supported',
      topUp: 'guaranteed',
      activation: { startsAt: 'first_installation', windowDays: 180 },
    });
    expect(plans[2]).toMatchObject({ kind: 'unlimited', dataMb: null, unlimited: true });
  });
});

describe('the wholesale price never leaves the projections', () => {
  it('appears in no destination or plan, under any rule, nor does recommendedRetail', () => {
    for (const currency of ['USD', 'RUB'] as const) {
      const snapshot = fixtureSnapshot(currency);
      const index = indexByDestination(snapshot);
      const rules = [
        PricingRuleSchema.parse({ kind: 'recommended_retail' }),
        PricingRuleSchema.parse({ kind: 'markup', percent: 30, rounding: 'none' }),
      ];
      for (const rule of rules) {
        const price: RetailPricer = (offer) => retailPrice(offer, rule, { wholeRubOnly: currency === 'RUB' });
        const output = JSON.stringify([
          projectDestinations(index, 'en', price),
          [...index.values()].map((entry) => projectPlans(entry.offers, snapshot.productById, 'en', price)),
        ]);
        expect(output).not.toContain('recommendedRetail');
        for (const offer of snapshot.offers) {
          expect(output).not.toMatch(new RegExp(`\\b${offer.price.amountMinor}\\b`));
        }
      }
    }
  });
});
