/**
 * @module
 * One widget's catalog: the upstream snapshot, settlement and brand held in a {@link CatalogCache}, and the
 * traveller's views of it (destinations, plans, a quote's plan) projected per locale at the widget's
 * retail prices, each with an ETag. The wholesale price never leaves this module's projections. What one
 * refresh builds, and the per-locale views, are in `catalog-state.ts`.
 *
 * Over 300 lines: one short entry per view of the catalog; what a refresh builds is `catalog-state.ts`.
 */
import {
  ACCOUNT_UNREADABLE,
  type Destination,
  type Locale,
  type NonNegativeMoney,
  type Offer,
  type Plan,
  type Product,
  type Settlement,
  type UpstreamQuote,
  type WidgetBrand,
} from '@esim-embed/shared';
import { DEFAULT_PRICING_RULE } from '../config/pricing-rule';
import { ApiError } from '../errors';
import { resolveWidgetBrand } from './brand';
import { type CatalogCacheStatus, createCatalogCache } from './catalog-cache';
import type { CatalogServiceOptions } from './catalog-options';
import { type CatalogState, catalogLoader, viewsOf } from './catalog-state';
import { projectPlan, projectPlans } from './plans';
import { retailPrice } from './pricing';
import { requireControl, type WhiteLabel } from './retail-brand';
import { credentialProblem, type WidgetFitness } from './widget-fitness';

export type { CatalogServiceOptions };

/** Destinations in one locale. */
export interface DestinationsView {
  catalogVersion: number;
  /** Strong ETag (quoted) of this locale, catalog version, prices and pricing rule. */
  etag: string;
  destinations: Destination[];
}

/** The plans of one destination in one locale. */
export interface PlansView {
  catalogVersion: number;
  etag: string;
  destination: Destination;
  plans: Plan[];
}

/** A quote's plan and retail price, from the upstream quote's own product and offer. */
export interface QuotedPlan {
  plan: Plan;
  price: NonNegativeMoney;
}

/** One widget's catalog, kept fresh in the background. Every read serves the last good snapshot. */
export interface CatalogService {
  /** Starts the background refreshes (the first one at once). Idempotent. */
  start(): void;
  /** Destinations in `locale`; throws `upstream_unavailable` only when no snapshot was ever loaded. */
  destinations(locale: Locale): Promise<DestinationsView>;
  /** Plans of the destination `code` (e.g. `DE`, `EU`), cheapest first; `destination_not_found` if none. */
  plans(code: string, locale: Locale): Promise<PlansView>;
  /**
   * The plan of one offer of the catalog; `offer_not_found` if it is not (or no longer) sold. Reads only what the
   * BFF holds: a supply that wants each offer checked with the upstream is {@link routeServed}'s.
   */
  planForOffer(offerId: string, locale: Locale): Promise<Plan>;
  /**
   * When the issue supply is `route_dependent`: the upstream's own read of the offer, `product_unavailable` when
   * its route is not served now (one upstream call). Else nothing to ask. Before a new quote, never before a
   * reused one: the quote it reuses was checked when it was made.
   */
  routeServed(offerId: string): Promise<void>;
  /** The plan and retail price of an upstream quote (its own product, offer and price, not the cache's). */
  quotedPlan(quote: UpstreamQuote, locale: Locale): Promise<QuotedPlan>;
  /**
   * The plan of any upstream offer (a top-up offer, the offer an eSIM was bought with) at this widget's retail
   * price for it; `product` when the caller has it, else the catalog's. Null when the product is unknown.
   */
  offerPlan(offer: Offer, product: Product | null, locale: Locale): Promise<Plan | null>;
  /** The retail price of an upstream offer under the widget's rule and the account's settlement. */
  retailPrice(offer: Offer): Promise<NonNegativeMoney>;
  /**
   * The name of the snapshot and pricing held now, for public versioned addresses: a new snapshot, a price
   * change or another rule gives a new name (the locale is named beside it).
   */
  version(): Promise<string>;
  /**
   * The catalog state held now, without waiting (undefined before the first load): an answer built from the
   * catalog stays right exactly while this is the same object (http/answer-cache.ts).
   */
  held(): object | undefined;
  /** The ETag of `locale`'s views of the current snapshot. */
  etag(locale: Locale): Promise<string>;
  /** The validated brand; the defaults plus the widget's overrides while the upstream was never reached. */
  brand(): Promise<WidgetBrand>;
  /**
   * The upstream URL of the account's logo that the brand names at the BFF, or null (the widget sets its own
   * logo or none, the account has none, or nothing was ever read).
   */
  accountLogoUrl(): Promise<string | null>;
  /** The white label the widget sells under (its brand's status, readiness, switches and legal pages). */
  whiteLabel(): Promise<WhiteLabel>;
  /**
   * Why the widget sells nothing now, from the catalog held (no upstream call): the `reason` a quote would be
   * refused with (`supply_not_sellable`, `retail_brand_status`, `retail_brand_not_ready`, `retail_brand_unknown`,
   * `retail_brand_control`), or null while it sells or nothing was read yet. For the sales-stopped gauge.
   */
  salesStopped(): string | null;
  /** Settlement currency and `wholeRubOnly` (`GET /capabilities`). */
  settlement(): Promise<Settlement>;
  /**
   * Whether the widget can sell as configured, from the last capabilities read, or the credential problem of
   * the last refresh (mTLS, CIDR, key). Never throws: while nothing was ever read it reports no problem.
   */
  fitness(): Promise<WidgetFitness>;
  /** Refreshes now (shared with one in flight); `force` walks the whole catalog even if its version is the same. */
  refresh(options?: { force?: boolean }): Promise<void>;
  /** Catalog version held (or null) and the cache's health. */
  status(): CatalogCacheStatus & { catalogVersion: number | null };
  /**
   * Stops the background refreshes; resolves once a refresh under way has finished (the upstream client is the
   * caller's to close).
   */
  close(): Promise<void>;
}

/** A forced refresh for an unknown offer id happens at most this often. */
const UNKNOWN_OFFER_REFRESH_MS = 30_000;

/** Before anything was read: no problem known, everything offered (reads fail on their own). */
const UNKNOWN_FITNESS: WidgetFitness = {
  problems: [],
  sellsNewEsims: true,
  offersTopUps: true,
  issue: { sellable: true, perOfferCheck: false, availability: 'unknown', access: 'unknown' },
  warnings: [],
};

/**
 * Refuse what a widget whose upstream supplies no new eSIMs through the API would show or sell: the store
 * cannot sell (`storefront_app_disabled`, the words of a store that is not available), naming the supply.
 */
function requireIssueSupply(fitness: WidgetFitness): void {
  if (fitness.sellsNewEsims) return;
  throw new ApiError('storefront_app_disabled', {
    params: {
      reason: 'supply_not_sellable',
      operation: 'issue',
      availability: fitness.issue.availability,
      access: fitness.issue.access,
    },
  });
}

/**
 * The catalog service of one widget.
 *
 * @example
 * const catalog = createCatalogService({ upstream, pricing: config.pricing, brandOverrides: config.brand, logger });
 * catalog.start();
 * const { etag, destinations } = await catalog.destinations('de');
 */
export function createCatalogService(options: CatalogServiceOptions): CatalogService {
  const rule = options.pricing ?? DEFAULT_PRICING_RULE;
  const logger = options.logger.child({ component: 'catalog' });
  const fullSyncMaxAgeMs = options.fullSyncMaxAgeMs ?? 10 * 60_000;
  let lastUnknownOfferRefresh = 0;

  const load = catalogLoader(options, logger, fullSyncMaxAgeMs);
  const cache = createCatalogCache<CatalogState>({
    load,
    refreshIntervalMs: options.refreshIntervalMs ?? 60_000,
    // The account never answered: its white label is unknown and nothing is shown until it does.
    incomplete: (state) =>
      state.whiteLabel.kind === 'unknown' && state.whiteLabel.cause === ACCOUNT_UNREADABLE,
    logger,
  });

  const etagOf = (state: CatalogState, locale: Locale) => viewsOf(state, locale).etag;

  /**
   * The exact offer check a `route_dependent` issue supply requires: the upstream's own read of the offer, before
   * the traveller is quoted (and pays). An offer whose route is not served now is `product_unavailable`.
   */
  async function requireRouteServed(offerId: string): Promise<void> {
    try {
      await options.upstream.getOffer(offerId);
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'product_unavailable' || error.code === 'offer_not_found')
      ) {
        logger.info('offer refused by the exact offer check of a route-dependent supply', {
          offerId,
          upstreamCode: error.code,
        });
        throw new ApiError('product_unavailable', { params: { offerId, reason: 'route_not_served' } });
      }
      throw error;
    }
  }

  return {
    start: () => cache.start(),
    async destinations(locale) {
      const state = await cache.get();
      requireControl(state.whiteLabel, 'browse');
      requireIssueSupply(state.fitness);
      return {
        catalogVersion: state.snapshot.catalogVersion,
        etag: etagOf(state, locale),
        destinations: viewsOf(state, locale).destinations,
      };
    },
    async plans(code, locale) {
      const state = await cache.get();
      requireControl(state.whiteLabel, 'browse');
      requireIssueSupply(state.fitness);
      const normalized = code.toUpperCase();
      const views = viewsOf(state, locale);
      const destination = views.byCode.get(normalized);
      const entry = state.index.get(normalized);
      if (!destination || !entry) throw new ApiError('destination_not_found', { params: { code } });
      let plans = views.plans.get(normalized);
      if (!plans) {
        plans = projectPlans(entry.offers, state.snapshot.productById, locale, state.price);
        views.plans.set(normalized, plans);
      }
      return {
        catalogVersion: state.snapshot.catalogVersion,
        etag: etagOf(state, locale),
        destination,
        plans,
      };
    },
    async planForOffer(offerId, locale) {
      let state = await cache.get();
      requireControl(state.whiteLabel, 'checkout');
      if (
        !state.snapshot.offerById.has(offerId) &&
        Date.now() - lastUnknownOfferRefresh > UNKNOWN_OFFER_REFRESH_MS
      ) {
        // The offer may be newer than the held snapshot: look once, then answer from what is held.
        lastUnknownOfferRefresh = Date.now();
        state = await cache.refresh().catch(() => state);
      }
      if (state.fitness.problems.length > 0) throw new ApiError('widget_misconfigured');
      requireIssueSupply(state.fitness);
      const offer = state.snapshot.offerById.get(offerId);
      const product = offer && state.snapshot.productById.get(offer.productId);
      if (!offer || !product) throw new ApiError('offer_not_found', { params: { offerId } });
      if (state.maxWholesaleMinor !== null && offer.price.amountMinor > state.maxWholesaleMinor) {
        throw new ApiError('order_limit_exceeded', {
          params: { stage: 'before_payment', limit: 'single_order' },
        });
      }
      return projectPlan(offer, product, locale, state.price);
    },
    async routeServed(offerId) {
      if ((await cache.get()).fitness.issue.perOfferCheck) await requireRouteServed(offerId);
    },
    async quotedPlan(quote, locale) {
      const state = await cache.get();
      // Top-up quotes come here too: a brand that stopped selling sells no top-up either.
      requireControl(state.whiteLabel, 'checkout');
      const price = retailPrice(quote.offer, rule, state.settlement);
      return { plan: projectPlan(quote.offer, quote.product, locale, () => price), price };
    },
    async offerPlan(offer, product, locale) {
      const state = await cache.get();
      const known = product ?? state.snapshot.productById.get(offer.productId) ?? null;
      if (known === null) return null;
      const price = retailPrice(offer, rule, state.settlement);
      return projectPlan(offer, known, locale, () => price);
    },
    async retailPrice(offer) {
      const state = await cache.get();
      return retailPrice(offer, rule, state.settlement);
    },
    held: () => cache.peek(),
    async etag(locale) {
      return etagOf(await cache.get(), locale);
    },
    async version() {
      const state = await cache.get();
      return `${state.snapshot.catalogVersion}-${state.digest.slice(0, 16)}`;
    },
    async brand() {
      const state = cache.peek() ?? (await cache.get().catch(() => undefined));
      if (state) return state.brand;
      return resolveWidgetBrand({
        account: null,
        overrides: options.brandOverrides,
        publicOrigin: options.publicOrigin,
        fallbackName: options.displayName,
        logger,
      });
    },
    async accountLogoUrl() {
      const state = cache.peek() ?? (await cache.get().catch(() => undefined));
      return state?.accountLogoUrl ?? null;
    },
    async whiteLabel() {
      return (await cache.get()).whiteLabel;
    },
    salesStopped() {
      const state = cache.peek();
      if (state === undefined) return null;
      try {
        requireControl(state.whiteLabel, 'checkout');
        requireIssueSupply(state.fitness);
        return null;
      } catch (error) {
        return error instanceof ApiError ? String(error.params.reason ?? error.code) : 'unknown';
      }
    },
    async settlement() {
      return (await cache.get()).settlement;
    },
    async fitness() {
      const state = cache.peek() ?? (await cache.get().catch(() => undefined));
      const problem = credentialProblem(cache.status().lastError);
      if (problem) {
        const issue = { ...UNKNOWN_FITNESS.issue, sellable: false };
        return { problems: [problem], sellsNewEsims: false, offersTopUps: false, issue, warnings: [] };
      }
      return state?.fitness ?? UNKNOWN_FITNESS;
    },
    async refresh(refreshOptions) {
      await cache.refresh(refreshOptions);
    },
    status() {
      const state = cache.peek();
      return { ...cache.status(), catalogVersion: state?.snapshot.catalogVersion ?? null };
    },
    close: () => cache.stop(),
  };
}
