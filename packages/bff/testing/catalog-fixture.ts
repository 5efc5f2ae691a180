/**
 * @module
 * A small catalog for the projection tests, every product and offer parsed by the shared strict
 * schemas so it has exactly the upstream's shape. Wholesale prices end in 7 777 so a test can search
 * any output for them.
 */
import { type Offer, OfferSchema, type Product, ProductSchema } from '@esim-embed/shared';
import type { CatalogSnapshot } from '../src/catalog/catalog-sync';

function product(
  id: string,
  iso: string,
  name: string,
  region: string | null,
  pkg: Partial<Product['package']> = {},
) {
  return ProductSchema.parse({
    id,
    slug: id,
    title: `${name} ${id}`,
    country: { iso, name, flag: iso === 'XG' ? '🌐' : `flag-${iso}`, region },
    package: { kind: 'fixed', dataMb: 1024, dailyDataMb: null, durationDays: 7, unlimited: false, ...pkg },
    activation: { startsAt: 'first_connection', windowDays: 30 },
    lifecycle: 'available',
  });
}

function offer(
  id: string,
  productId: string,
  wholesaleMinor: number,
  retailMinor: number,
  currency: 'RUB' | 'USD',
) {
  return OfferSchema.parse({
    id,
    productId,
    price: { amountMinor: wholesaleMinor, currency },
    recommendedRetail: { amountMinor: retailMinor, currency },
    capabilities: {
      topUp: 'guaranteed',
      fiveG: 'supported',
      tethering: 'unknown',
      networks: ['Net'],
      networkTypes: ['LTE'],
    },
    activation: { startsAt: 'first_installation', windowDays: 180 },
    catalogVersion: 7,
    pricingVersion: 'pv1',
  });
}

/** A snapshot of Germany (3 offers), Turkey (1), Europe (EU, 1) and Global (XG, 1), in `currency`. */
export function fixtureSnapshot(currency: 'RUB' | 'USD' = 'USD'): CatalogSnapshot {
  const products: Product[] = [
    product('de-1gb', 'DE', 'Germany', 'Europe'),
    product('de-unl', 'DE', 'Germany', 'Europe', {
      kind: 'unlimited',
      dataMb: null,
      unlimited: true,
      durationDays: 5,
    }),
    product('tr-3gb', 'TR', 'Turkey', 'Europe', { dataMb: 3072, durationDays: 30 }),
    product('eu-5gb', 'EU', 'Europe', 'Europe', { dataMb: 5120, durationDays: 30 }),
    product('xg-1gb', 'XG', 'Global', 'Global'),
  ];
  const offers: Offer[] = [
    offer('off-de-1', 'de-1gb', 17_777, 49_900, currency),
    offer('off-de-2', 'de-1gb', 27_777, 39_900, currency),
    offer('off-de-unl', 'de-unl', 37_777, 89_900, currency),
    offer('off-tr-3', 'tr-3gb', 47_777, 99_900, currency),
    offer('off-eu-5', 'eu-5gb', 57_777, 159_900, currency),
    offer('off-xg-1', 'xg-1gb', 67_777, 199_900, currency),
  ];
  return {
    catalogVersion: 7,
    generatedAt: '2026-11-22T10:00:00Z',
    products,
    offers,
    productById: new Map(products.map((p) => [p.id, p])),
    offerById: new Map(offers.map((o) => [o.id, o])),
    fetchedAt: Date.now(),
  };
}
