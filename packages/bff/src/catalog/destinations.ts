/**
 * @module
 * The catalog as destinations: one entry per country or region, with its localized name, flag, region,
 * cheapest retail price, number of plans, popularity rank and search terms. Retail prices only.
 */
import {
  type Destination,
  formatMoney,
  type Locale,
  type NonNegativeMoney,
  type Offer,
  type Product,
} from '@esim-embed/shared';
import type { CatalogSnapshot } from './catalog-sync';
import {
  destinationName,
  destinationSearchTerms,
  isRegionCode,
  POPULAR_DESTINATIONS,
  regionSlug,
} from './destination-names';

/** The retail price of an offer (the widget's pricing rule applied); the wholesale price never leaves it. */
export type RetailPricer = (offer: Offer) => NonNegativeMoney;

/** The offers of one destination code, with one of its products for the country facts. */
export interface DestinationOffers {
  code: string;
  /** A product of this destination: its `country` (name, flag, region) describes the destination. */
  product: Product;
  offers: readonly Offer[];
}

/** Groups a snapshot's offers by destination code (the product's `country.iso`, upper-cased). */
export function indexByDestination(
  snapshot: CatalogSnapshot,
  maxWholesaleMinor: number | null = null,
): ReadonlyMap<string, DestinationOffers> {
  const index = new Map<string, { code: string; product: Product; offers: Offer[] }>();
  for (const offer of snapshot.offers) {
    // An offer above the account's single-order limit would be refused at the order: never offered.
    if (maxWholesaleMinor !== null && offer.price.amountMinor > maxWholesaleMinor) continue;
    const product = snapshot.productById.get(offer.productId);
    if (!product) continue;
    const code = product.country.iso.toUpperCase();
    let entry = index.get(code);
    if (!entry) {
      entry = { code, product, offers: [] };
      index.set(code, entry);
    }
    entry.offers.push(offer);
  }
  return index;
}

/** Popularity ranks (1 = most popular) of the popular destinations present in the catalog, without gaps. */
function popularityRanks(codes: ReadonlySet<string>): Map<string, number> {
  const present = POPULAR_DESTINATIONS.filter((code) => codes.has(code));
  return new Map(present.map((code, index) => [code, index + 1]));
}

/** How the partner's prices are shown: whole roubles when its account settles so. */
export interface PriceDisplay {
  wholeRubOnly: boolean;
}

/** One destination in `locale`. `rank` is its popularity rank or null. */
export function projectDestination(
  entry: DestinationOffers,
  locale: Locale,
  price: RetailPricer,
  rank: number | null,
  display: PriceDisplay = { wholeRubOnly: false },
): Destination {
  const { code, product } = entry;
  const region = isRegionCode(code);
  let fromPrice: NonNegativeMoney | undefined;
  for (const offer of entry.offers) {
    const retail = price(offer);
    if (!fromPrice || retail.amountMinor < fromPrice.amountMinor) fromPrice = retail;
  }
  // An entry exists only with at least one offer.
  const from: NonNegativeMoney = fromPrice ?? { amountMinor: 0, currency: 'USD' };
  return {
    code,
    kind: region ? 'region' : 'country',
    name: destinationName(code, product.country.name, locale),
    flag: product.country.flag,
    region: region
      ? regionSlug(product.country.name)
      : product.country.region
        ? regionSlug(product.country.region)
        : null,
    popularity: rank,
    fromPrice: from,
    fromPriceLabel: formatMoney(from, locale, display),
    planCount: entry.offers.length,
    searchTerms: destinationSearchTerms(code, product.country.name),
  };
}

/**
 * Every destination with at least one plan, in `locale`, sorted by name in that locale's collation.
 * `region` is a stable slug (`europe`, `middle-east`): a country's region, or a region's own.
 */
export function projectDestinations(
  index: ReadonlyMap<string, DestinationOffers>,
  locale: Locale,
  price: RetailPricer,
  display: PriceDisplay = { wholeRubOnly: false },
): Destination[] {
  const ranks = popularityRanks(new Set(index.keys()));
  const collator = new Intl.Collator(locale);
  return [...index.values()]
    .map((entry) => projectDestination(entry, locale, price, ranks.get(entry.code) ?? null, display))
    .sort((a, b) => collator.compare(a.name, b.name));
}
