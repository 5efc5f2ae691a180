/**
 * @module
 * The catalog as plans: the offers of one destination as a traveller compares them, cheapest first, at
 * retail prices only (the wholesale `price` and `recommendedRetail` never appear).
 */
import { comparePlans, type Locale, type Offer, type Plan, type Product } from '@esim-embed/shared';
import { destinationName } from './destination-names';
import type { RetailPricer } from './destinations';

/** One offer of one product as a plan in `locale`. */
export function projectPlan(offer: Offer, product: Product, locale: Locale, price: RetailPricer): Plan {
  const code = product.country.iso.toUpperCase();
  const activation = offer.activation;
  return {
    offerId: offer.id,
    productId: product.id,
    title: product.title,
    destination: {
      code,
      name: destinationName(code, product.country.name, locale),
      flag: product.country.flag,
    },
    kind: product.package.kind,
    dataMb: nonNegativeOrNull(product.package.dataMb),
    dailyDataMb: nonNegativeOrNull(product.package.dailyDataMb),
    unlimited: product.package.unlimited,
    durationDays: product.package.durationDays,
    price: price(offer),
    fiveG: offer.capabilities.fiveG,
    tethering: offer.capabilities.tethering,
    topUp: offer.capabilities.topUp,
    networks: [...offer.capabilities.networks],
    networkTypes: [...offer.capabilities.networkTypes],
    activation: { startsAt: activation.startsAt, windowDays: nonNegativeOrNull(activation.windowDays) },
  };
}

/** Plans of one destination, cheapest first (the shared rule, `comparePlans('price')`). */
export function projectPlans(
  offers: readonly Offer[],
  productById: ReadonlyMap<string, Product>,
  locale: Locale,
  price: RetailPricer,
): Plan[] {
  const plans: Plan[] = [];
  for (const offer of offers) {
    const product = productById.get(offer.productId);
    if (product) plans.push(projectPlan(offer, product, locale, price));
  }
  return plans.sort(comparePlans('price'));
}

function nonNegativeOrNull(value: number | null): number | null {
  return value === null || value < 0 ? null : value;
}
