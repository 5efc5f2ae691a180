/**
 * @module
 * The deterministic catalog generator: products (a destination and a package) and offers (a product on a
 * network bundle at a base price) for every destination, from one seed and a target offer count. The same
 * seed and count always give the same catalog, and a bigger count gives a superset of a smaller one.
 *
 * Over 300 lines: the price tables sit beside the generator that draws from them.
 */
import type { ActivationRule, Offer, Product } from '@esim-embed/shared';
import { DESTINATIONS, type Destination, type Region } from './destinations';
import { COUNTRIES_WITH_REAL_OPERATORS, operatorsOf } from './network-operators';
import {
  KIND_ORDER,
  type PackageVariant,
  POPULAR,
  packageTitle,
  VARIANTS,
  variantKey,
} from './package-variants';
import { createPrng, type Prng } from './prng';

/** An offer before it is priced for an account: the base price is a recommended retail in US cents. */
export interface CatalogOffer {
  id: string;
  productId: string;
  /** The destination code of the offer's product. */
  iso: string;
  /** Recommended retail in USD cents before the pricing version's adjustment. */
  baseRetailUsdCents: number;
  capabilities: Offer['capabilities'];
  activation: ActivationRule;
}

/** A generated catalog with its lookup indexes. */
export interface Catalog {
  seed: number;
  products: readonly Product[];
  offers: readonly CatalogOffer[];
  productById: ReadonlyMap<string, Product>;
  offerById: ReadonlyMap<string, CatalogOffer>;
  offersByProduct: ReadonlyMap<string, readonly CatalogOffer[]>;
}

/** The largest catalog the generator can produce (about 600 offers per destination). */
export const MAX_OFFER_COUNT = 150_000;

/** Base price of one gigabyte in US cents, by region (regional plans are priced as their region). */
const CENTS_PER_GB: Record<Region | 'Global', number> = {
  Europe: 150,
  'North America': 300,
  Asia: 220,
  'Middle East': 350,
  Africa: 450,
  'South America': 380,
  Oceania: 320,
  Antarctica: 2500,
  Global: 800,
};

/** Regions where networks commonly offer 5G to roaming eSIMs. */
const FIVE_G_CHANCE: Record<Region | 'Global', number> = {
  Europe: 0.8,
  'North America': 0.75,
  Asia: 0.65,
  'Middle East': 0.6,
  Oceania: 0.6,
  'South America': 0.35,
  Africa: 0.2,
  Antarctica: 0,
  Global: 0.5,
};

/** Rounds a price in cents up to the next `x.99`, at least 1.99. */
function retailCents(cents: number): number {
  return Math.max(199, Math.ceil(cents / 100) * 100 - 1);
}

function basePriceCents(variant: PackageVariant, destination: Destination, factor: number): number {
  const perGb = CENTS_PER_GB[destination.region] * factor * (destination.scope === 'regional' ? 1.3 : 1);
  switch (variant.kind) {
    case 'fixed': {
      const gb = (variant.dataMb ?? 0) / 1024;
      return 250 + perGb * gb ** 0.8 * (1 + variant.durationDays / 240);
    }
    case 'unlimited':
      return 400 + perGb * 1.7 * variant.durationDays ** 0.85;
    case 'daypass':
      return 100 + perGb * ((variant.dailyDataMb ?? 0) / 1024) * 0.6 * variant.durationDays;
    case 'no_expiry': {
      const gb = (variant.dataMb ?? 0) / 1024;
      return (250 + perGb * gb ** 0.8) * (1.25 + variant.durationDays / 1460);
    }
  }
}

function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function activationFor(variant: PackageVariant, rng: Prng): ActivationRule {
  if (variant.kind === 'no_expiry')
    return { startsAt: 'first_installation', windowDays: variant.durationDays };
  if (rng.chance(0.1)) return { startsAt: 'purchase', windowDays: null };
  if (rng.chance(0.2)) return { startsAt: 'first_installation', windowDays: 30 };
  return { startsAt: 'first_connection', windowDays: rng.pick([30, 90, 180]) };
}

interface OfferCandidate {
  variant: PackageVariant;
  /** 1 for the standard network bundle, 2 for the premium (5G) bundle. */
  bundle: 1 | 2;
}

/** Each variant's rank in the popular list, or -1. */
const POPULAR_RANK = VARIANTS.map((variant) => POPULAR.indexOf(variantKey(variant)));

/**
 * Every offer a destination could carry, most popular first (deterministic per seed and destination), as
 * candidate numbers: `variant index * 2 + bundle - 1`. Numbers instead of objects keep large catalogs fast.
 */
function rankedCandidates(seed: number, destination: Destination): Uint16Array {
  const rng = createPrng(seed, `rank:${destination.iso}`);
  const scores = new Float64Array(VARIANTS.length * 2);
  for (let index = 0; index < VARIANTS.length; index++) {
    const popular = POPULAR_RANK[index] ?? -1;
    const score = popular >= 0 ? popular + rng.next() * 2.5 : 20 + rng.next() * 600;
    scores[index * 2] = score;
    scores[index * 2 + 1] = score + 40 + rng.next() * 600;
  }
  const order = new Uint16Array(scores.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0));
}

function candidateAt(ranked: Uint16Array, level: number): OfferCandidate | undefined {
  const number = ranked[level];
  if (number === undefined) return undefined;
  const variant = VARIANTS[number >> 1];
  return variant ? { variant, bundle: (number & 1) === 0 ? 1 : 2 } : undefined;
}

const networkPools = new Map<string, readonly string[]>();

/**
 * The networks an offer of a destination may name: the country's operators, or for a regional plan the real
 * operators of the countries it covers (invented ones only where it covers none with real operators).
 */
function networkPool(destination: Destination): readonly string[] {
  let pool = networkPools.get(destination.iso);
  if (pool === undefined) {
    const real = destination.covers.filter((iso) => COUNTRIES_WITH_REAL_OPERATORS.includes(iso));
    const countries =
      destination.scope === 'country' ? [destination.iso] : real.length > 0 ? real : destination.covers;
    pool = countries.flatMap(operatorsOf);
    networkPools.set(destination.iso, pool);
  }
  return pool;
}

function buildOffer(
  seed: number,
  destination: Destination,
  candidate: OfferCandidate,
  product: Product,
  factor: number,
): CatalogOffer {
  const { variant, bundle } = candidate;
  const rng = createPrng(seed, `offer:${destination.iso}:${variant.code}:${bundle}`);
  const pool = networkPool(destination);
  const networkCount = destination.scope === 'regional' ? rng.int(3, 6) : rng.int(1, 3);
  const networks = new Set<string>();
  while (networks.size < Math.min(networkCount, pool.length)) networks.add(rng.pick(pool));
  const fiveG = bundle === 2 || rng.chance(FIVE_G_CHANCE[destination.region]);
  const tethering =
    variant.kind === 'unlimited' && rng.chance(0.5)
      ? 'unsupported'
      : rng.chance(0.05)
        ? 'unknown'
        : 'supported';
  const topUp = variant.kind === 'fixed' || variant.kind === 'no_expiry' ? 'guaranteed' : 'not_guaranteed';
  const premium = bundle === 2 ? 1.15 : 1;
  return {
    id: `off_${destination.iso.toLowerCase()}_${variant.code}_${bundle}`,
    productId: product.id,
    iso: destination.iso,
    baseRetailUsdCents: retailCents(basePriceCents(variant, destination, factor) * premium),
    capabilities: {
      topUp: destination.region === 'Antarctica' ? 'not_guaranteed' : topUp,
      fiveG: fiveG ? 'supported' : 'unsupported',
      tethering,
      networks: [...networks].sort(),
      networkTypes: fiveG ? ['4G', '5G'] : rng.chance(0.3) ? ['3G', '4G'] : ['4G'],
    },
    activation: product.activation,
  };
}

/**
 * Generates the catalog: offers are dealt round-robin over the destinations (each destination's most
 * popular package first) until `offerCount` offers exist.
 *
 * @example
 * const catalog = generateCatalog({ seed: 42, offerCount: 10_000 });
 */
export function generateCatalog(options: { seed: number; offerCount: number }): Catalog {
  const { seed } = options;
  const offerCount = Math.max(1, Math.min(MAX_OFFER_COUNT, Math.floor(options.offerCount)));
  const ranked = DESTINATIONS.map((destination) => ({
    destination,
    factor: 0.75 + createPrng(seed, `factor:${destination.iso}`).next() * 0.7,
    candidates: rankedCandidates(seed, destination),
  }));

  const taken: { destination: Destination; factor: number; candidate: OfferCandidate }[] = [];
  for (let level = 0; taken.length < offerCount; level++) {
    let any = false;
    for (const entry of ranked) {
      const candidate = candidateAt(entry.candidates, level);
      if (candidate === undefined) continue;
      any = true;
      taken.push({ destination: entry.destination, factor: entry.factor, candidate });
      if (taken.length >= offerCount) break;
    }
    if (!any) break;
  }

  const products = new Map<string, { product: Product; destination: Destination; variant: PackageVariant }>();
  const offers: CatalogOffer[] = [];
  for (const { destination, factor, candidate } of taken) {
    const productId = `prd_${destination.iso.toLowerCase()}_${candidate.variant.code}`;
    if (!products.has(productId)) {
      const rng = createPrng(seed, `product:${productId}`);
      const variant = candidate.variant;
      const title = packageTitle(destination, variant);
      products.set(productId, {
        destination,
        variant,
        product: {
          id: productId,
          slug: slugOf(`${destination.name}-${variant.code}`),
          title,
          country: {
            iso: destination.iso,
            name: destination.name,
            flag: destination.flag,
            region: destination.region,
          },
          package: {
            kind: variant.kind,
            dataMb: variant.dataMb,
            dailyDataMb: variant.dailyDataMb,
            durationDays: variant.durationDays,
            unlimited: variant.kind === 'unlimited',
          },
          activation: activationFor(variant, rng),
          lifecycle: 'available',
        },
      });
    }
    const entry = products.get(productId);
    if (entry) offers.push(buildOffer(seed, destination, candidate, entry.product, factor));
  }

  const orderedProducts = [...products.values()]
    .sort(
      (a, b) =>
        a.destination.iso.localeCompare(b.destination.iso) ||
        KIND_ORDER[a.variant.kind] - KIND_ORDER[b.variant.kind] ||
        (a.variant.dataMb ?? a.variant.dailyDataMb ?? 0) - (b.variant.dataMb ?? b.variant.dailyDataMb ?? 0) ||
        a.variant.durationDays - b.variant.durationDays,
    )
    .map((entry) => entry.product);
  const productIndex = new Map(orderedProducts.map((product, index) => [product.id, index]));
  offers.sort(
    (a, b) =>
      (productIndex.get(a.productId) ?? 0) - (productIndex.get(b.productId) ?? 0) || a.id.localeCompare(b.id),
  );

  const offersByProduct = new Map<string, CatalogOffer[]>();
  for (const offer of offers) {
    const list = offersByProduct.get(offer.productId) ?? [];
    list.push(offer);
    offersByProduct.set(offer.productId, list);
  }
  return {
    seed,
    products: orderedProducts,
    offers,
    productById: new Map(orderedProducts.map((product) => [product.id, product])),
    offerById: new Map(offers.map((offer) => [offer.id, offer])),
    offersByProduct,
  };
}
