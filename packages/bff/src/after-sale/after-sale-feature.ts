/**
 * @module
 * The after-sale feature: manage tokens, the after-sale service (manage links, my eSIM, top-ups, help requests)
 * and the watch that follows the partner's help requests until they end — a completed refund brings the checkout
 * that sold the eSIM up to date, or tells the sales ledger when that checkout has gone.
 */
import type { BackgroundWork } from '../background-stop';
import type { CheckoutService } from '../checkout/checkout-service';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { IndexedRecords } from '../store/index-rebuild';
import type { Store } from '../store/store';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type ActionRequestWatch, createActionRequestWatch } from './action-request-watch';
import { type AfterSaleService, createAfterSaleService } from './after-sale-service';
import { createManageTokens, type ManageTokens } from './manage-token';

export interface AfterSaleFeatureOptions {
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  checkouts: CheckoutService;
  esimOwners: EsimOwners;
  /** Where a help request's change of status is queued (action_request.updated webhooks). */
  webhookQueue: WebhookQueue;
  /** Told of a refund whose checkout is no longer kept (the sales ledger). */
  refundSeen: (checkoutId: string) => Promise<void>;
  /** The root secrets, newest first: the first seals manage links, each one still opens what it sealed. */
  rootSecrets: readonly Uint8Array[];
  /** How long a help request's record is kept after its last change. */
  actionRequestRetentionMs: number;
  logger: Logger;
  /** How often the open help requests are read. */
  watchIntervalMs: number;
  now: (() => number) | undefined;
}

export interface AfterSaleFeature {
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  /** The partner's help requests, followed until they end. */
  actionRequestWatch: ActionRequestWatch;
  /** The help requests as the index build at start reads them. */
  indexedRecords: IndexedRecords<unknown>[];
  /** The help-request watch. */
  background: BackgroundWork[];
}

/** The after-sale feature, from its ports. */
export function createAfterSaleFeature(options: AfterSaleFeatureOptions): AfterSaleFeature {
  const { store, checkouts, esimOwners, logger } = options;
  const manageTokens = createManageTokens({ secrets: options.rootSecrets, store, now: options.now });
  const actionRequestWatch = createActionRequestWatch({
    store,
    retentionMs: options.actionRequestRetentionMs,
    esimOwners,
    queue: options.webhookQueue,
    widgets: options.widgets,
    logger,
    intervalMs: options.watchIntervalMs,
    async refundCompleted(widget, esimId) {
      const checkoutId = (await esimOwners.sellerOf(esimId))?.checkoutId ?? null;
      if (checkoutId === null) return;
      // The partner's read brings a sold checkout up to date with its order (a refunded order ends it, and its
      // sale says so); once the checkout has gone, the ledger is told of the refund itself.
      const read = await checkouts
        .partnerRead(new Map([[widget.config.id, widget]]), checkoutId, { fresh: true })
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'checkout_not_found') return null;
          throw error;
        });
      if (read === null) await options.refundSeen(checkoutId);
    },
  });
  const afterSale = createAfterSaleService({
    checkouts,
    manageTokens,
    actionRequests: actionRequestWatch,
    esimOwners,
    logger,
  });
  return {
    afterSale,
    manageTokens,
    actionRequestWatch,
    indexedRecords: [actionRequestWatch.indexedRecords],
    background: [
      {
        name: 'help-request watch',
        start: () => actionRequestWatch.start(),
        close: () => actionRequestWatch.close(),
      },
    ],
  };
}
