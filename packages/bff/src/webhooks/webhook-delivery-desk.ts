/**
 * @module
 * The partner's support desk for webhooks: its widgets' deliveries listed newest first (filtered by status, event
 * type and checkout through the queue's sorted indexes, never a scan), one delivery with the event it sends, and
 * a resend — the same event under the same id, due at once. Only deliveries of the caller's own widgets: any other
 * id reads as unknown (`not_found`), so one partner learns nothing of another's.
 */
import type {
  PartnerWebhookDelivery,
  PartnerWebhookDeliveryDetail,
  WebhookDeliveryListQuery,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookEventType,
} from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { ListPage, ListPosition } from '../http/list-page';
import { readIndexPage } from '../store/index-page';
import type { Store } from '../store/store';
import { DELIVERY_INDEXES, type WebhookDelivery, type WebhookQueue } from './webhook-queue';
import { webhookCircuitPause } from './webhook-sender';

export interface WebhookDeliveryDeskOptions {
  queue: WebhookQueue;
  /** Where the endpoints' circuits are kept (a paused widget's deliveries read `paused`). */
  store: Store;
  now?: () => number;
}

/** The desk's filters, as the query validated them. */
export type WebhookDeliveryFilters = Pick<WebhookDeliveryListQuery, 'status' | 'type' | 'checkoutId'>;

/** What the desk answers. */
export interface WebhookDeliveryDesk {
  /** One page of `widgetId`'s deliveries, newest first, after `after`. */
  list(
    widgetId: string,
    filters: WebhookDeliveryFilters,
    after: ListPosition | null,
    limit: number,
  ): Promise<ListPage<PartnerWebhookDelivery>>;
  /** One delivery of one of `widgetIds`, with its event. */
  read(widgetIds: ReadonlySet<string>, id: string): Promise<PartnerWebhookDeliveryDetail>;
  /** Send one delivery of one of `widgetIds` again now; answers it as it is then (pending). */
  resend(widgetIds: ReadonlySet<string>, id: string): Promise<PartnerWebhookDeliveryDetail>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The partner's view of a stored delivery; `pausedUntilMs`: its widget's circuit, if open. */
function toPartnerDelivery(
  delivery: WebhookDelivery,
  pausedUntilMs: number | null,
  nowMs: number,
): PartnerWebhookDelivery {
  const paused = delivery.state === 'pending' && pausedUntilMs !== null && pausedUntilMs > nowMs;
  const status: WebhookDeliveryStatus =
    delivery.state === 'delivered'
      ? 'delivered'
      : delivery.state === 'gave_up'
        ? 'failed'
        : paused
          ? 'paused'
          : 'pending';
  const nextAttemptAtMs = paused
    ? Math.max(delivery.nextAttemptAtMs, pausedUntilMs ?? 0)
    : delivery.nextAttemptAtMs;
  return {
    id: delivery.id,
    type: delivery.type as WebhookEventType,
    widgetId: delivery.widgetId,
    checkoutId: delivery.checkoutId,
    esimId: delivery.esimId,
    status,
    attemptCount: delivery.attempts,
    attempts: delivery.history.map(({ atMs, result }) => {
      const httpStatus = /^\d{3}$/.test(result) ? Number(result) : null;
      return { at: iso(atMs), httpStatus, error: httpStatus === null ? result : null };
    }),
    nextAttemptAt: delivery.state === 'pending' ? iso(nextAttemptAtMs) : null,
    createdAt: iso(delivery.createdAtMs),
    resentAt: delivery.resentAtMs === null ? null : iso(delivery.resentAtMs),
  };
}

/** The index that holds the fewest of the deliveries a filter asks for, and the filter left for the records. */
function indexFor(widgetId: string, filters: WebhookDeliveryFilters): string {
  if (filters.checkoutId !== undefined) return DELIVERY_INDEXES.checkout(widgetId, filters.checkoutId);
  if (filters.type !== undefined) return DELIVERY_INDEXES.type(widgetId, filters.type);
  if (filters.status === 'delivered') return DELIVERY_INDEXES.state(widgetId, 'delivered');
  if (filters.status === 'failed') return DELIVERY_INDEXES.state(widgetId, 'gave_up');
  if (filters.status !== undefined) return DELIVERY_INDEXES.state(widgetId, 'pending');
  return DELIVERY_INDEXES.all(widgetId);
}

/** The {@link WebhookDeliveryDesk}. */
export function createWebhookDeliveryDesk(options: WebhookDeliveryDeskOptions): WebhookDeliveryDesk {
  const { queue, store } = options;
  const now = options.now ?? Date.now;

  /** A delivery of one of `widgetIds`, or `not_found` (another partner's reads as unknown). */
  async function ownDelivery(widgetIds: ReadonlySet<string>, id: string): Promise<WebhookDelivery> {
    const stored = /^evt_[A-Za-z0-9_-]{1,64}$/.test(id) ? await queue.read(id) : null;
    if (stored === null || !widgetIds.has(stored.delivery.widgetId)) {
      throw new ApiError('not_found', { params: { resource: 'webhook_delivery', webhookDeliveryId: id } });
    }
    return stored.delivery;
  }

  async function detail(delivery: WebhookDelivery): Promise<PartnerWebhookDeliveryDetail> {
    const pausedUntilMs = await webhookCircuitPause(store, delivery.widgetId);
    return {
      ...toPartnerDelivery(delivery, pausedUntilMs, now()),
      event: JSON.parse(delivery.body) as WebhookEvent,
    };
  }

  return {
    async list(widgetId, filters, after, limit) {
      const nowMs = now();
      const pausedUntilMs = await webhookCircuitPause(store, widgetId);
      // The circuit pauses all of a widget's pending deliveries or none: the other status has none to page.
      const paused = pausedUntilMs !== null && pausedUntilMs > nowMs;
      if ((filters.status === 'paused' && !paused) || (filters.status === 'pending' && paused))
        return { items: [], next: null };
      return await readIndexPage({
        index: queue.index(indexFor(widgetId, filters)),
        after,
        limit,
        load: async (id) => {
          const stored = await queue.read(id);
          // Only this widget's, whatever an index holds: the scope does not rest on index names alone.
          return stored?.delivery.widgetId === widgetId
            ? toPartnerDelivery(stored.delivery, pausedUntilMs, nowMs)
            : null;
        },
        keep: (delivery) =>
          (filters.status === undefined || delivery.status === filters.status) &&
          (filters.type === undefined || delivery.type === filters.type),
      });
    },
    async read(widgetIds, id) {
      return await detail(await ownDelivery(widgetIds, id));
    },
    async resend(widgetIds, id) {
      await ownDelivery(widgetIds, id);
      const resent = await queue.resend(id, now());
      if (resent === null) {
        throw new ApiError('not_found', { params: { resource: 'webhook_delivery', webhookDeliveryId: id } });
      }
      return await detail(resent.delivery);
    },
  };
}
