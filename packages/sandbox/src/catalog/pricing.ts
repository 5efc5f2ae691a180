/**
 * @module
 * Prices an offer for one account: the base recommended retail adjusted by the pricing version, converted
 * to the account's settlement currency, and the account's wholesale `price` below it (whole roubles where
 * the account settles with `wholeRubOnly`).
 */
import type { Currency, Offer } from '@esim-embed/shared';
import type { CatalogOffer } from './catalog-generator';

/** Roubles per US dollar used to convert the base prices. */
export const RUB_PER_USD = 95;

/** Who the offer is priced for. */
export interface PricingAccount {
  currency: Currency;
  wholeRubOnly: boolean;
  discountPct: number;
}

/** The catalog and pricing versions an offer is priced under. */
export interface PricingSnapshot {
  catalogVersion: number;
  /** Global pricing epoch, starting at 1; bumped by `/__sandbox/pricing/bump`. */
  pricingEpoch: number;
  /** Per-offer bumps on top of the epoch. */
  offerBumps: ReadonlyMap<string, number>;
}

/** The offer's pricing version string (`pv1`, or `pv1-o2` after two bumps of just this offer). */
export function pricingVersionOf(offerId: string, snapshot: PricingSnapshot): string {
  const bumps = snapshot.offerBumps.get(offerId) ?? 0;
  return bumps > 0 ? `pv${snapshot.pricingEpoch}-o${bumps}` : `pv${snapshot.pricingEpoch}`;
}

function retailMinor(offer: CatalogOffer, account: PricingAccount, snapshot: PricingSnapshot): number {
  const bumps = snapshot.offerBumps.get(offer.id) ?? 0;
  const factor = 1 + 0.04 * (snapshot.pricingEpoch - 1) + 0.06 * bumps;
  const usdCents = offer.baseRetailUsdCents * factor;
  if (account.currency === 'USD') return Math.max(199, Math.ceil(usdCents / 100) * 100 - 1);
  // Roubles: a retail price ending in 9 whole roubles (e.g. 379 ₽), in kopecks.
  const roubles = (usdCents / 100) * RUB_PER_USD;
  return Math.max(149, Math.ceil(roubles / 10) * 10 - 1) * 100;
}

/** The offer as the account sees it: its wholesale `price`, `recommendedRetail` and versions. */
export function priceOffer(offer: CatalogOffer, account: PricingAccount, snapshot: PricingSnapshot): Offer {
  const retail = retailMinor(offer, account, snapshot);
  let price = Math.floor((retail * (100 - account.discountPct)) / 100);
  if (account.currency === 'RUB' && account.wholeRubOnly) price = Math.floor(price / 100) * 100;
  // The wholesale price always stays below the recommended retail.
  price = Math.min(price, retail - (account.currency === 'RUB' && account.wholeRubOnly ? 100 : 1));
  return {
    id: offer.id,
    productId: offer.productId,
    price: { amountMinor: Math.max(0, price), currency: account.currency },
    recommendedRetail: { amountMinor: retail, currency: account.currency },
    capabilities: offer.capabilities,
    activation: offer.activation,
    catalogVersion: snapshot.catalogVersion,
    pricingVersion: pricingVersionOf(offer.id, snapshot),
  };
}
