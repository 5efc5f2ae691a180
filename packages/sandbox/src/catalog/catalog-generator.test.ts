import { OfferSchema, ProductSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { generateCatalog } from './catalog-generator';
import { COUNTRY_CODES, DESTINATIONS, flagEmoji } from './destinations';
import { priceOffer } from './pricing';

describe('generateCatalog', () => {
  const catalog = generateCatalog({ seed: 42, offerCount: 2000 });

  it('is deterministic: same seed, same catalog; another seed, another catalog', () => {
    expect(generateCatalog({ seed: 42, offerCount: 2000 })).toEqual(catalog);
    const other = generateCatalog({ seed: 7, offerCount: 2000 });
    expect(other.offers.map((offer) => offer.baseRetailUsdCents)).not.toEqual(
      catalog.offers.map((offer) => offer.baseRetailUsdCents),
    );
  });

  it('makes exactly the requested number of offers, a bigger catalog holding a smaller one', () => {
    expect(catalog.offers).toHaveLength(2000);
    const bigger = generateCatalog({ seed: 42, offerCount: 10_000 });
    expect(bigger.offers).toHaveLength(10_000);
    const ids = new Set(bigger.offers.map((offer) => offer.id));
    expect(catalog.offers.every((offer) => ids.has(offer.id))).toBe(true);
  });

  it('covers every ISO 3166 country plus the regional and global plans', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    const isos = new Set(catalog.products.map((product) => product.country.iso));
    for (const destination of DESTINATIONS) expect(isos.has(destination.iso)).toBe(true);
    const regional = catalog.products.filter((product) =>
      ['EU', 'XA', 'XF', 'XL', 'XM', 'XG'].includes(product.country.iso),
    );
    expect(new Set(regional.map((product) => product.country.region))).toEqual(
      new Set(['Europe', 'Asia', 'Africa', 'South America', 'Middle East', 'Global']),
    );
    expect(flagEmoji('JP')).toBe('🇯🇵');
    expect(catalog.products.find((product) => product.country.iso === 'DE')?.country.name).toBe('Germany');
  });

  it('produces valid products and offers with every package kind, unique ids of at most 64 characters', () => {
    for (const product of catalog.products) ProductSchema.parse(product);
    const kinds = new Set(catalog.products.map((product) => product.package.kind));
    expect(kinds).toEqual(new Set(['fixed', 'unlimited', 'daypass', 'no_expiry']));
    expect(new Set(catalog.offers.map((offer) => offer.id)).size).toBe(catalog.offers.length);
    expect(Math.max(...catalog.offers.map((offer) => offer.id.length))).toBeLessThanOrEqual(64);
    for (const product of catalog.products) {
      const pkg = product.package;
      if (pkg.kind === 'unlimited') expect([pkg.unlimited, pkg.dataMb]).toEqual([true, null]);
      if (pkg.kind === 'daypass') expect(pkg.dailyDataMb).toBeGreaterThan(0);
      if (pkg.kind === 'fixed') expect(pkg.dataMb).toBeGreaterThan(0);
    }
    const snapshot = { catalogVersion: 1, pricingEpoch: 1, offerBumps: new Map<string, number>() };
    for (const offer of catalog.offers) {
      for (const account of [
        { currency: 'USD' as const, wholeRubOnly: false, discountPct: 22 },
        { currency: 'RUB' as const, wholeRubOnly: true, discountPct: 18 },
      ]) {
        const priced = OfferSchema.parse(priceOffer(offer, account, snapshot));
        expect(priced.recommendedRetail.amountMinor).toBeGreaterThan(priced.price.amountMinor);
      }
    }
  });

  it('prices regions differently (Europe cheaper per GB than Africa on average)', () => {
    const average = (region: string) => {
      const offers = catalog.offers.filter((offer) => {
        const product = catalog.productById.get(offer.productId);
        return (
          product?.country.region === region &&
          product.package.kind === 'fixed' &&
          product.package.dataMb === 5120
        );
      });
      return offers.reduce((sum, offer) => sum + offer.baseRetailUsdCents, 0) / offers.length;
    };
    expect(average('Europe')).toBeLessThan(average('Africa'));
  });
});
