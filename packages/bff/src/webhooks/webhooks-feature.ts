/**
 * @module
 * The webhooks feature: the sender of the signed events the queue holds, the partner's desk of its deliveries
 * (listed, read, resent) and the widget-sales watch. The queue itself is built before the checkout and the
 * funding, which write to it; the bodies read the traveller's address from the checkouts as they leave.
 */
import type { BackgroundWork } from '../background-stop';
import type { CheckoutRepository } from '../checkout/checkout-record';
import type { BffConfig } from '../config/config-schema';
import type { Logger } from '../logger';
import type { IndexedRecords } from '../store/index-rebuild';
import type { Store } from '../store/store';
import type { OutgoingCalls } from '../upstream/outgoing-call-observer';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createWebhookBodies } from './webhook-body';
import { createWebhookDeliveryDesk, type WebhookDeliveryDesk } from './webhook-delivery-desk';
import type { WebhookQueue } from './webhook-queue';
import { createWebhookSender, type WebhookSender, type WebhookSenderOptions } from './webhook-sender';
import { createWidgetSalesWatch, type WidgetSalesWatch } from './widget-sales-watch';

export interface WebhooksFeatureOptions {
  config: BffConfig;
  queue: WebhookQueue;
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The checkouts, whose traveller's address a checkout event's body is given as it leaves. */
  repository: Pick<CheckoutRepository, 'getCheckout'>;
  logger: Logger;
  /** Told of every delivery attempt (the metrics and tracing, when on). */
  observer: OutgoingCalls | undefined;
  /** The sender's loop period, attempt timeout and clock (tests). */
  sender: Pick<WebhookSenderOptions, 'intervalMs' | 'timeoutMs' | 'now'> | undefined;
  /** How often the widget-sales watch looks. */
  watchIntervalMs: number;
  /** The desk's clock. */
  now: (() => number) | undefined;
}

export interface WebhooksFeature {
  sender: WebhookSender;
  desk: WebhookDeliveryDesk;
  /** Tells the partner when its widget stops selling and sells again (widget.sales_* webhooks). */
  widgetSalesWatch: WidgetSalesWatch;
  /** The deliveries as the index build at start reads them. */
  indexedRecords: IndexedRecords<unknown>[];
  /** The sender and the widget-sales watch. */
  background: BackgroundWork[];
}

/** The webhooks feature, from its ports. */
export function createWebhooksFeature(options: WebhooksFeatureOptions): WebhooksFeature {
  const { config, queue, store, widgets, logger } = options;
  /** How long an event is retried before it is given up. */
  const retryForMs = config.webhookRetryHours * 60 * 60 * 1000;
  // A checkout event's body keeps no traveller's address: it is read from the checkout as the body leaves.
  const bodies = createWebhookBodies(options.repository);
  const sender = createWebhookSender({
    queue,
    store,
    widgets,
    logger,
    retryForMs,
    backoffFirstMs: config.webhookBackoffSeconds * 1000,
    observer: options.observer,
    bodies,
    ...options.sender,
  });
  const desk = createWebhookDeliveryDesk({ queue, store, retryForMs, bodies, now: options.now });
  const widgetSalesWatch = createWidgetSalesWatch({
    store,
    queue,
    widgets,
    logger,
    intervalMs: options.watchIntervalMs,
  });
  return {
    sender,
    desk,
    widgetSalesWatch,
    indexedRecords: [queue.indexedRecords],
    background: [
      { name: 'webhook sender', start: () => sender.start(), close: () => sender.close() },
      {
        name: 'widget sales watch',
        start: () => widgetSalesWatch.start(),
        close: () => widgetSalesWatch.close(),
      },
    ],
  };
}
