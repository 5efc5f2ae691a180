/**
 * @module
 * The privacy feature: a traveller's data erased at the partner's request (a job on the store's work queue), the
 * sweep that erases the travellers of widgets removed from the config, and what the export reads.
 */
import type { ManageTokens } from '../after-sale/manage-token';
import type { BackgroundWork } from '../background-stop';
import type { EsimOwners } from '../checkout/esim-owners';
import type { BffConfig } from '../config/config-schema';
import { deriveKey } from '../security/key-ring';
import type { WebhookDeliveryDesk } from '../webhooks/webhook-delivery-desk';
import { createPrivacyErasures, type PrivacyErasures, type PrivacyErasuresOptions } from './privacy-erasures';
import type { PrivacyExportOptions } from './privacy-export';
import { createRemovedWidgets, type RemovedWidgets } from './removed-widgets';

export interface PrivacyFeatureOptions
  extends Omit<
    PrivacyErasuresOptions,
    'digestKey' | 'keptAnswerTtlMs' | 'manageTokens' | 'esimOwners' | 'intervalMs' | 'afterStep'
  > {
  config: BffConfig;
  /** The newest root secret, from which the receipts' digest key is derived. */
  sessionSecret: Uint8Array;
  manageTokens: ManageTokens;
  esimOwners: EsimOwners;
  /** The partner's webhook deliveries, which the export lists. */
  webhookDesk: WebhookDeliveryDesk;
  /** How often the queue is read for erasures an instance left. */
  watchIntervalMs: number;
  /** Tests only: told after each step of an erasure is recorded. */
  afterStep: PrivacyErasuresOptions['afterStep'];
}

export interface PrivacyFeature {
  erasures: PrivacyErasures;
  /** Erases the travellers of widgets removed from the config, after `privacy.removedWidgetErasureDays`. */
  removedWidgets: RemovedWidgets;
  /** What the partner's export of a traveller's data reads. */
  exports: PrivacyExportOptions;
  /** The erasures' queue and the removed widgets' sweep. */
  background: BackgroundWork[];
}

/** The privacy feature, from its ports. */
export function createPrivacyFeature(options: PrivacyFeatureOptions): PrivacyFeature {
  const { config, store, repository, esimOwners, indexNames, widgets, logger, now } = options;
  const erasures = createPrivacyErasures({
    store,
    repository,
    esimOwners,
    webhookQueue: options.webhookQueue,
    manageTokens: options.manageTokens,
    widgets,
    digestKey: deriveKey(options.sessionSecret, 'privacy-erasure').key,
    // A kept answer rewritten without the traveller lives no longer than the longest kept (a session's create).
    keptAnswerTtlMs: (config.idempotencyTtlHours * 60 * 60 + config.sessionTtlSeconds) * 1000,
    actionRequestTtlMs: options.actionRequestTtlMs,
    receiptKeptMs: options.receiptKeptMs,
    indexNames,
    logger,
    intervalMs: options.watchIntervalMs,
    now,
    afterStep: options.afterStep,
  });
  const removedWidgets = createRemovedWidgets({
    store,
    configured: new Set(widgets.keys()),
    erasures,
    erasureDays: config.privacy.removedWidgetErasureDays,
    logger,
    now,
  });
  return {
    erasures,
    removedWidgets,
    exports: { store, repository, esimOwners, indexNames, webhookDesk: options.webhookDesk, now },
    background: [
      { name: 'privacy erasures', start: () => erasures.start(), close: () => erasures.close() },
      {
        name: 'removed widgets sweep',
        start: () => removedWidgets.start(),
        close: () => removedWidgets.close(),
      },
    ],
  };
}
