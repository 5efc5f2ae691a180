/**
 * @module
 * The partner's support desk for webhooks: its widgets' deliveries listed newest first (filtered by status, event
 * type and checkout through the queue's sorted indexes, never a scan), one delivery with the event it sends, and
 * a resend — the same event under the same id, due at once, unless it is still pending (then nothing changes).
 * Only deliveries of the caller's own widgets: any other
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
import type { ListPage, ListPosition } from '../store/index-pages';
import { readIndexPage } from '../store/index-pages';
import type { Store } from '../store/store';
import { type WebhookBodies, withoutTraveller } from './webhook-body';
import { resumeWebhookCircuit, webhookCircuitPause } from './webhook-circuit';
import { DELIVERY_INDEXES, type WebhookDelivery, type WebhookQueue } from './webhook-queue';

export interface WebhookDeliveryDeskOptions {
  queue: WebhookQueue;
  /** Where the endpoints' circuits are kept (a paused widget's deliveries read `paused`). */
  store: Store;
  /** How long an event is retried (and a circuit kept): the sender's span. */
  retryForMs: number;
  /** Puts the traveller's address into an event as it is read (`webhook-body.ts`); default: as stored. */
  bodies?: WebhookBodies;
  now?: () => number;
}

/** The desk's filters, as the query validated them. */
export type WebhookDeliveryFilters = Pick<WebhookDeliveryListQuery, 'status' | 'type' | 'checkoutId'>;

/** What the desk answers. */
export interface WebhookDeliveryDesk {
  /** One page of the deliveries of `widgetIds` (the caller's), newest first, after `after`. */
  list(
    widgetIds: readonly string[],
    filters: WebhookDeliveryFilters,
    after: ListPosition | null,
    limit: number,
  ): Promise<ListPage<PartnerWebhookDelivery>>;
  /** One delivery of one of `widgetIds`, with its event. */
  read(widgetIds: ReadonlySet<string>, id: string): Promise<PartnerWebhookDeliveryDetail>;
  /**
   * Send one delivery of one of `widgetIds` again now, unless it is still pending (on its way already: nothing
   * changes, `resent: false`); answers it as it is then.
   */
  resend(
    widgetIds: ReadonlySet<string>,
    id: string,
  ): Promise<{ resent: boolean; delivery: PartnerWebhookDeliveryDetail }>;
  /** A delivery as a kept answer holds it: its event without the traveller's address. */
  keptWithoutTraveller(delivery: PartnerWebhookDeliveryDetail): PartnerWebhookDeliveryDetail;
  /** A kept delivery as it is answered again: its event's address read from its checkout now. */
  withTraveller(delivery: PartnerWebhookDeliveryDetail): Promise<PartnerWebhookDeliveryDetail>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The `not_found` of a delivery id that is none of the caller's (unknown, gone, or another partner's). */
const unknownDelivery = (id: string) =>
  new ApiError('not_found', { params: { resource: 'webhook_delivery', webhookDeliveryId: id } });

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

/**
 * The index of one widget that holds the fewest of the deliveries a filter asks for (what it does not hold is
 * checked on the records); null when the widget can have none (`paused` asked of a widget whose circuit is closed,
 * `pending` of one whose circuit is open: the circuit holds all of a widget's pending deliveries or none).
 */
function indexFor(widgetId: string, filters: WebhookDeliveryFilters, paused: boolean): string | null {
  if ((filters.status === 'paused' && !paused) || (filters.status === 'pending' && paused)) return null;
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
      throw unknownDelivery(id);
    }
    return stored.delivery;
  }

  async function detail(delivery: WebhookDelivery): Promise<PartnerWebhookDeliveryDetail> {
    const pausedUntilMs = await webhookCircuitPause(store, delivery.widgetId);
    const body = (await options.bodies?.bodyOf(delivery)) ?? delivery.body;
    return { ...toPartnerDelivery(delivery, pausedUntilMs, now()), event: JSON.parse(body) as WebhookEvent };
  }

  return {
    async list(widgetIds, filters, after, limit) {
      const nowMs = now();
      // The widgets' circuits read at once (one store read each), not one after another.
      const pauses = await Promise.all(widgetIds.map((widgetId) => webhookCircuitPause(store, widgetId)));
      const circuits = new Map<string, number | null>();
      const names: string[] = [];
      widgetIds.forEach((widgetId, at) => {
        const pausedUntilMs = pauses[at] ?? null;
        circuits.set(widgetId, pausedUntilMs);
        const name = indexFor(widgetId, filters, pausedUntilMs !== null && pausedUntilMs > nowMs);
        if (name !== null) names.push(name);
      });
      return await readIndexPage({
        store,
        names,
        fromScore: -Infinity,
        toScore: Infinity,
        after,
        limit,
        resolve: async (entry) => {
          const stored = await queue.read(entry.member);
          // Only the caller's widgets', whatever an index holds: the scope does not rest on index names alone.
          if (stored === null || !circuits.has(stored.delivery.widgetId)) return undefined;
          const delivery = toPartnerDelivery(
            stored.delivery,
            circuits.get(stored.delivery.widgetId) ?? null,
            nowMs,
          );
          const fits =
            (filters.status === undefined || delivery.status === filters.status) &&
            (filters.type === undefined || delivery.type === filters.type);
          return fits ? delivery : undefined;
        },
      });
    },
    async read(widgetIds, id) {
      return await detail(await ownDelivery(widgetIds, id));
    },
    async resend(widgetIds, id) {
      const { widgetId } = await ownDelivery(widgetIds, id);
      const nowMs = now();
      // A pending delivery goes at its own next attempt (the circuit's probe, when its endpoint fails): another
      // resend of it would only end that pause and start its retry span again, as often as it is asked.
      const outcome = await queue.resend(id, nowMs);
      if (outcome === null) throw unknownDelivery(id);
      if (outcome.resent) {
        // The attempt goes at once, as the endpoint's probe: the circuit's pause ends with the queue's. A widget
        // whose batch is under way on some instance keeps that hold: the resent delivery goes once the batch
        // ends, and never beside it (one stream to an endpoint at a time).
        const resumed = await resumeWebhookCircuit(store, widgetId, nowMs, options.retryForMs);
        if (resumed) await queue.pauseWidget(widgetId, 0);
      }
      return { resent: outcome.resent, delivery: await detail(outcome.stored.delivery) };
    },
    keptWithoutTraveller: (delivery) => ({ ...delivery, event: withoutTraveller(delivery.event) }),
    async withTraveller(delivery) {
      const event = (await options.bodies?.withTraveller(delivery.event)) ?? delivery.event;
      return { ...delivery, event };
    },
  };
}
