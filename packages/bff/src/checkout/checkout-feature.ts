/**
 * @module
 * The checkout feature: the one checkout repository with what a checkout's change of status sets off
 * (`checkout-transitions.ts`), the checkout service, who sold each eSIM, the background watch and the
 * reconciliation of upstream orders with checkouts. What reacts from above (webhooks, funding, emails, the sales
 * ledger) comes in as ports, so the checkout knows no one above it.
 */
import type { BackgroundWork } from '../background-stop';
import type { BffConfig, RetentionMs } from '../config/config-schema';
import type { Logger } from '../logger';
import { keyedDigest } from '../security/keyed-digest';
import type { IndexedRecords } from '../store/index-rebuild';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createCheckoutSecrets } from './checkout-access';
import type { CheckoutFunding } from './checkout-funding';
import {
  type CheckoutIndexNames,
  createCheckoutIndex,
  createCheckoutIndexNames,
  indexedCheckouts,
} from './checkout-index';
import type { CheckoutRepository } from './checkout-record';
import { type CheckoutService, createCheckoutService } from './checkout-service';
import {
  type CheckoutReactions,
  type CheckoutTransitions,
  createCheckoutTransitions,
} from './checkout-transitions';
import { type CheckoutWatch, createCheckoutWatch } from './checkout-watch';
import { createEsimOwners, type EsimOwners } from './esim-owners';
import {
  createOrderReconciliation,
  type OrderReconciliation,
  type OrderReconciliationOptions,
} from './order-reconciliation';
import { createOrderReferences } from './order-references';

export interface CheckoutFeatureOptions {
  config: BffConfig;
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** The root secrets, newest first (the checkouts' client secrets, the lists' index names). */
  rootSecrets: readonly Uint8Array[];
  retention: RetentionMs;
  /** Checks and holds the partner's funding before a checkout exists, and moves the hold with its status. */
  funding: CheckoutFunding & NonNullable<CheckoutReactions['funding']>;
  /** What the layers above do when a checkout changes status. */
  reactions: Pick<CheckoutReactions, 'webhooks' | 'installationEmails' | 'salesLedger'>;
  /** Tells the partner of an upstream order no checkout owns. */
  reportUnmatched: OrderReconciliationOptions['reportUnmatched'];
  /** Counts each change of status (the metrics, when on). */
  counted: ((status: string) => void) | undefined;
  /** How often the watch looks. */
  watchIntervalMs: number;
  now: (() => number) | undefined;
}

export interface CheckoutFeature {
  checkouts: CheckoutService;
  /** The one checkout repository: every change of status written through it sets its reactions off. */
  repository: CheckoutRepository;
  transitions: CheckoutTransitions;
  /** Who sold each eSIM and made each delivery link. */
  esimOwners: EsimOwners;
  /** The names of the partner lists' indexes, keyed digests of exact values under the root secrets. */
  indexNames: CheckoutIndexNames;
  checkoutWatch: CheckoutWatch;
  orderReconciliation: OrderReconciliation;
  /** The checkouts as the index build at start reads them. */
  indexedRecords: IndexedRecords<unknown>[];
  /** The watch, the reconciliation and the postponed placements. */
  background: BackgroundWork[];
}

/** The checkout feature, from its ports. */
export function createCheckoutFeature(options: CheckoutFeatureOptions): CheckoutFeature {
  const { config, store, widgets, logger, retention, funding, now } = options;
  // Exact values name the lists' indexes by their keyed digest; a search reads their earlier names too.
  const indexNames = createCheckoutIndexNames(keyedDigest(options.rootSecrets, 'index-name'));
  const orderReferences = createOrderReferences(store, retention.checkoutMs, now);
  const checkoutWatch = createCheckoutWatch({
    store,
    logger,
    intervalMs: options.watchIntervalMs,
    settle: (checkoutId, seen) => transitions.settle(checkoutId, seen),
  });
  // The one checkout repository: what a change of status sets off is decided in checkout-transitions.ts.
  const transitions: CheckoutTransitions = createCheckoutTransitions({
    store,
    logger,
    reactions: {
      ...options.reactions,
      esimOwners: { record: (checkout) => esimOwners.record(checkout) },
      funding,
      watch: checkoutWatch,
      orderReferences,
    },
    counted: options.counted,
    indexNames,
    retention,
    now,
  });
  const { repository } = transitions;
  const esimOwners = createEsimOwners(store, repository, retention.esimMs);
  const checkoutSecrets = createCheckoutSecrets(options.rootSecrets);
  const checkouts = createCheckoutService({
    store,
    logger,
    funding,
    secrets: checkoutSecrets,
    statusCacheMs: config.statusCacheMs,
    placementLeaseMs: config.takeoverAfterMs,
    repository,
    now,
  });
  const orderReconciliation = createOrderReconciliation({
    store,
    widgets,
    repository,
    orderReferences,
    reportUnmatched: options.reportUnmatched,
    // An order of a checkout a Redis failover lost waits for its traveller's retry as long as a session lives.
    madeHere: checkoutSecrets.madeCheckoutId,
    retryWindowMs: config.sessionTtlSeconds * 1000,
    logger,
    now,
  });
  return {
    checkouts,
    repository,
    transitions,
    esimOwners,
    indexNames,
    checkoutWatch,
    orderReconciliation,
    indexedRecords: [
      indexedCheckouts(createCheckoutIndex(store, { names: indexNames, retention, now }), indexNames),
    ],
    background: [
      {
        name: 'checkout watch',
        start: () => checkoutWatch.start(checkouts, widgets),
        close: () => checkoutWatch.close(),
      },
      {
        name: 'order reconciliation',
        start: () => orderReconciliation.start(),
        close: () => orderReconciliation.close(),
      },
      { name: 'postponed placements', close: () => checkouts.close() },
    ],
  };
}
