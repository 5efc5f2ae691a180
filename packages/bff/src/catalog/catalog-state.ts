/**
 * @module
 * What one refresh of a widget's catalog produces ({@link CatalogState}): the upstream snapshot, capabilities,
 * account and brand, the offers indexed by destination within the account's single-order limit, and the
 * per-locale views built on first use, with the digest their ETags are made of.
 */
import { createHash } from 'node:crypto';
import type {
  Account,
  Destination,
  Locale,
  NonNegativeMoney,
  Plan,
  Settlement,
  WidgetBrand,
} from '@esim-embed/shared';
import { DEFAULT_PRICING_RULE, type PricingRule } from '../config/pricing-rule';
import type { Logger } from '../logger';
import { resolveWidgetBrand } from './brand';
import type { CatalogServiceOptions } from './catalog-options';
import { type CatalogSnapshot, syncCatalog } from './catalog-sync';
import {
  type DestinationOffers,
  indexByDestination,
  projectDestinations,
  type RetailPricer,
} from './destinations';
import { retailPrice } from './pricing';
import { appliedBrandOf, type WhiteLabel, whiteLabelChange, whiteLabelOf } from './retail-brand';
import { assessCapabilities, type FitnessSubject, type WidgetFitness } from './widget-fitness';

/** The white label as a log field: its kind, and the brand's key and status or why it is unknown. */
function whiteLabelLog(whiteLabel: WhiteLabel) {
  if (whiteLabel.kind === 'brand') {
    const { key, status, readiness } = whiteLabel.brand;
    return { kind: 'brand', brandKey: key, status, liveCheckoutReady: readiness.tracks.liveCheckout.ready };
  }
  return whiteLabel.kind === 'unknown'
    ? { kind: 'unknown', cause: whiteLabel.cause, brandKey: whiteLabel.brandKey }
    : { kind: 'none' };
}

/** The views of one locale. */
export interface LocaleViews {
  /** The views' strong ETag: the snapshot's version and a digest of its prices and this locale. */
  etag: string;
  destinations: Destination[];
  byCode: Map<string, Destination>;
  plans: Map<string, Plan[]>;
}

/** Everything one refresh produces. */
export interface CatalogState {
  snapshot: CatalogSnapshot;
  /** The account's single-order limit in the settlement currency: offers above it are not sold. */
  maxWholesaleMinor: number | null;
  index: ReadonlyMap<string, DestinationOffers>;
  settlement: Settlement;
  fitness: WidgetFitness;
  account: Account | null;
  /** The white label the widget sells under: none, a retail brand, or unknown (then nothing is sold). */
  whiteLabel: WhiteLabel;
  brand: WidgetBrand;
  /** The upstream URL of the account's logo that `brand.logoUrl` serves from the BFF, or null. */
  accountLogoUrl: string | null;
  price: RetailPricer;
  /** Digest of the catalog version, every offer's prices, the rule and the settlement. */
  digest: string;
  views: Map<Locale, LocaleViews>;
}

/** The subject of the fitness checks when the caller names none. */
const DEFAULT_SUBJECT: FitnessSubject = { environment: 'test', checkoutMode: 'direct', upstream: {} };

/**
 * The catalog cache's `load`: a refresh from the upstream that reuses what did not change since `previous`
 * (the snapshot while the catalog version holds, for up to `fullSyncMaxAgeMs`; the index while its inputs hold).
 */
export function catalogLoader(options: CatalogServiceOptions, logger: Logger, fullSyncMaxAgeMs: number) {
  const rule = options.pricing ?? DEFAULT_PRICING_RULE;
  async function load(previous: CatalogState | undefined, force: boolean): Promise<CatalogState> {
    const upstream = options.upstream;
    const [capabilities, account] = await Promise.all([
      upstream.getCapabilities(),
      upstream.getAccount().catch((error: unknown) => {
        logger.warn('upstream account unreadable, brand from the last good account or defaults', { error });
        return previous?.account ?? null;
      }),
    ]);
    let snapshot: CatalogSnapshot | undefined;
    if (!force && previous && Date.now() - previous.snapshot.fetchedAt < fullSyncMaxAgeMs) {
      const probe = await upstream.listProducts({ limit: 1 });
      if (probe.meta.catalogVersion === previous.snapshot.catalogVersion) snapshot = previous.snapshot;
    }
    snapshot ??= await syncCatalog(upstream, { logger, pageSize: options.pageSize });
    const settlement = capabilities.settlement;
    const fitness = assessCapabilities(capabilities, options.widget ?? DEFAULT_SUBJECT);
    reportFitness(previous?.fitness, fitness);
    const prices = new Map<string, NonNegativeMoney>();
    const price: RetailPricer = (offer) => {
      let retail = prices.get(offer.id);
      if (!retail) {
        retail = retailPrice(offer, rule, settlement);
        prices.set(offer.id, retail);
      }
      return retail;
    };
    const maxWholesaleMinor = singleOrderLimit(account, settlement.currency);
    const whiteLabel = whiteLabelOf(account, capabilities, logger);
    const change = whiteLabelChange(previous?.whiteLabel, whiteLabel);
    if (change !== null) logger.warn(change, { whiteLabel: whiteLabelLog(whiteLabel) });
    const retailBrand = appliedBrandOf(whiteLabel);
    let accountLogoUrl: string | null = null;
    const brand = resolveWidgetBrand({
      account,
      legal: retailBrand?.legal,
      overrides: options.brandOverrides,
      publicOrigin: options.publicOrigin,
      accountLogo: (sourceUrl) => {
        accountLogoUrl = sourceUrl;
        return options.accountLogo?.address(sourceUrl) ?? null;
      },
      fallbackName: options.displayName,
      logger,
    });
    const sameOffers =
      snapshot === previous?.snapshot &&
      maxWholesaleMinor === previous.maxWholesaleMinor &&
      fitness.sellsNewEsims === previous.fitness.sellsNewEsims;
    return {
      snapshot,
      maxWholesaleMinor,
      // Without the upstream's `issue` supply through the API nothing is for sale: no destination is indexed (the
      // catalog answers `storefront_app_disabled`).
      index: sameOffers
        ? previous.index
        : fitness.sellsNewEsims
          ? indexByDestination(snapshot, maxWholesaleMinor)
          : new Map(),
      settlement,
      fitness,
      account,
      whiteLabel,
      brand,
      accountLogoUrl,
      price,
      // What the store may show and sell is part of the version: a paused brand or a supply that stops selling
      // names a new catalog address, so no cached address of the old one is handed out after the change.
      digest: digestOf(snapshot, rule, settlement, maxWholesaleMinor, [
        whiteLabelLog(whiteLabel),
        fitness.sellsNewEsims,
      ]),
      views: new Map(),
    };
  }

  /** Logs what stops the widget (error) and what it costs (warning) when it changes, not on every refresh. */
  function reportFitness(before: WidgetFitness | undefined, after: WidgetFitness) {
    const said = (fitness: WidgetFitness | undefined) =>
      JSON.stringify([fitness?.problems, fitness?.warnings]);
    if (said(before) === said(after)) return;
    for (const problem of after.problems) {
      logger.error('widget stopped: the upstream key cannot sell as configured', { ...problem });
    }
    for (const warning of after.warnings) logger.warn('upstream capabilities', { warning });
  }

  return load;
}

/** The views of `state` in `locale`, built on first use and kept with the state. */
export function viewsOf(state: CatalogState, locale: Locale): LocaleViews {
  let views = state.views.get(locale);
  if (!views) {
    const destinations = projectDestinations(state.index, locale, state.price, state.settlement);
    views = {
      etag: `"c${state.snapshot.catalogVersion}-${digest(`${state.digest}|${locale}`).slice(0, 16)}"`,
      destinations,
      byCode: new Map(destinations.map((d) => [d.code, d])),
      plans: new Map(),
    };
    state.views.set(locale, views);
  }
  return views;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the traveller's views depend on besides the locale: any change gives new ETags. */
function digestOf(
  snapshot: CatalogSnapshot,
  rule: PricingRule,
  settlement: Settlement,
  maxWholesaleMinor: number | null,
  sellState: unknown,
): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      snapshot.catalogVersion,
      rule,
      settlement.currency,
      settlement.wholeRubOnly,
      maxWholesaleMinor,
      sellState,
    ]),
  );
  for (const offer of snapshot.offers) {
    hash.update(
      `|${offer.id}:${offer.pricingVersion}:${offer.price.amountMinor}:${offer.recommendedRetail.amountMinor}`,
    );
  }
  return hash.digest('hex');
}

/** The largest wholesale price one order may have on `account` in `currency`, or null for no limit. */
function singleOrderLimit(
  account: Pick<Account, 'limits'> | null,
  currency: NonNegativeMoney['currency'],
): number | null {
  const single = account?.limits.singleOrder ?? null;
  return single !== null && single.currency === currency ? single.amountMinor : null;
}
