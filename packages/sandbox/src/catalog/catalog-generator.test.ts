import { OfferSchema, ProductSchema } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { generateCatalog } from './catalog-generator';
import { COUNTRY_CODES, DESTINATIONS, flagEmoji } from './destinations';
import { COUNTRIES_WITH_REAL_OPERATORS, operatorsOf } from './network-operators';
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

  describe('networks', () => {
    const destinationOf = new Map(DESTINATIONS.map((destination) => [destination.iso, destination]));
    const networksOf = (iso: string) =>
      new Set(
        catalog.offers.filter((offer) => offer.iso === iso).flatMap((offer) => offer.capabilities.networks),
      );

    it('names, on every plan, only operators of its country (of the countries a regional plan covers)', () => {
      const strangers: string[] = [];
      for (const offer of catalog.offers) {
        const destination = destinationOf.get(offer.iso);
        const countries = destination?.scope === 'country' ? [offer.iso] : (destination?.covers ?? []);
        const serving = new Set(countries.flatMap(operatorsOf));
        for (const network of offer.capabilities.networks) {
          if (!serving.has(network)) strangers.push(`${offer.id}: ${network}`);
        }
      }
      expect(strangers).toEqual([]);
    });

    it('gives each operator one country, so a regional plan’s list says where each network is', () => {
      const countryOf = new Map<string, string[]>();
      for (const iso of COUNTRY_CODES) {
        for (const name of operatorsOf(iso)) countryOf.set(name, [...(countryOf.get(name) ?? []), iso]);
      }
      expect([...countryOf].filter(([, countries]) => countries.length > 1)).toEqual([]);
      expect(COUNTRIES_WITH_REAL_OPERATORS.every((iso) => COUNTRY_CODES.includes(iso))).toBe(true);
    });

    it('names Türkiye’s own operators on its plans, and invented names that claim nothing elsewhere', () => {
      const turkish = networksOf('TR');
      expect(turkish.size).toBeGreaterThan(0);
      for (const network of turkish) expect(['Turkcell', 'Vodafone TR', 'Türk Telekom']).toContain(network);
      for (const network of networksOf('AQ')) expect(network).toMatch(/^Sandbox \w+ AQ$/);
      for (const network of networksOf('EU')) {
        expect(destinationOf.get('EU')?.covers.some((iso) => operatorsOf(iso).includes(network))).toBe(true);
      }
    });
  });
});
