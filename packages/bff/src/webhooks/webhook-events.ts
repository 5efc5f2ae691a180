/**
 * @module
 * Which webhook events a checkout's status change means, and the observer that queues them for the widget's
 * `webhookUrl`. Event ids are derived from the checkout and the event type, so one change queued twice (two
 * instances, a retried write) is still one event.
 */
import { createHash } from 'node:crypto';
import type {
  CheckoutEventType,
  CheckoutWebhookEvent,
  Order,
  OrderUnmatchedWebhookEvent,
  WebhookEvent,
} from '@esim-embed/shared';
import type { CheckoutObserver, CheckoutRecord } from '../checkout/checkout-record';
import { toPartnerCheckout } from '../checkout/checkout-service';
import type { Logger } from '../logger';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { withoutTraveller } from './webhook-body';
import { eventSubject, type WebhookQueue } from './webhook-queue';

/** The events a checkout entering `after.status` means. */
export function eventTypesFor(after: CheckoutRecord): CheckoutEventType[] {
  switch (after.status) {
    case 'awaiting_payment':
      return ['checkout.awaiting_payment'];
    case 'ready':
      return after.kind === 'top_up'
        ? ['checkout.completed', 'topup.completed']
        : ['checkout.completed', 'esim.ready'];
    case 'failed':
      return ['checkout.failed'];
    case 'expired':
      return ['checkout.expired'];
    case 'cancelled':
      // Ended after the sale by the upstream's refund: the partner refunds the payment this checkout took.
      return after.order?.status === 'refunded'
        ? ['checkout.cancelled', 'checkout.refunded']
        : ['checkout.cancelled'];
    default:
      return [];
  }
}

/** The stable id of one event about one subject (a checkout, an order, a balance crossing). */
export function eventId(subject: string, type: WebhookEvent['type']): string {
  return `evt_${createHash('sha256').update(`${subject}:${type}`).digest('base64url').slice(0, 32)}`;
}

/** Queue one event for its widget (once: the event id is the delivery's key); true when it was new. */
export async function queueWebhookEvent(
  queue: WebhookQueue,
  event: WebhookEvent,
  now: number,
): Promise<boolean> {
  return await queue.enqueue({
    ...eventSubject(event),
    history: [],
    resentAtMs: null,
    id: event.id,
    type: event.type,
    widgetId: event.widgetId,
    body: JSON.stringify(event),
    state: 'pending',
    attempts: 0,
    createdAtMs: now,
    nextAttemptAtMs: now,
    leaseUntilMs: null,
    lastResult: null,
  });
}

/** Queue the `order.unmatched` event of an upstream order no checkout owns, for one widget (one id per both). */
export async function queueOrderUnmatched(
  queue: WebhookQueue,
  widget: WidgetRuntime,
  order: Order,
  time: number,
): Promise<void> {
  const event: OrderUnmatchedWebhookEvent = {
    // One id per widget and order: two instances reporting at once still make one delivery each.
    id: eventId(`${widget.config.id}:${order.id}`, 'order.unmatched'),
    type: 'order.unmatched',
    createdAt: new Date(time).toISOString(),
    widgetId: widget.config.id,
    environment: widget.config.environment,
    data: {
      order: {
        id: order.id,
        externalRef: order.externalRef,
        status: order.status,
        price: order.price,
        createdAt: order.createdAt,
      },
    },
  };
  await queueWebhookEvent(queue, event, time);
}

export interface WebhookEmitterOptions {
  queue: WebhookQueue;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  now?: () => number;
}

/** A checkout observer that queues the events of every status change for widgets with a webhook URL. */
export function createWebhookEmitter(options: WebhookEmitterOptions): CheckoutObserver {
  const { queue, widgets, logger } = options;
  const now = options.now ?? Date.now;
  return async function queueWebhookEvents(_before, after) {
    const widget = widgets.get(after.widgetId);
    if (widget?.config.webhookUrl === undefined || widget.webhookSecret === undefined) return;
    const time = now();
    for (const type of eventTypesFor(after)) {
      const event: CheckoutWebhookEvent = {
        id: eventId(after.id, type),
        type,
        createdAt: new Date(time).toISOString(),
        widgetId: after.widgetId,
        environment: after.environment,
        data: {
          checkout: toPartnerCheckout(after),
          esimId: after.kind === 'top_up' ? after.esimId : (after.order?.esimId ?? null),
        },
      };
      // Kept without the traveller's address: it is read from the checkout when the body leaves (webhook-body.ts).
      const queued = await queueWebhookEvent(queue, withoutTraveller(event), time);
      if (queued) {
        logger.info('webhook event queued', {
          eventId: event.id,
          type,
          widgetId: after.widgetId,
          checkoutId: after.id,
        });
      }
    }
  };
}
