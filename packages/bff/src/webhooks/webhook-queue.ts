/**
 * @module
 * The webhook delivery queue in the store (memory, Redis): one record per delivery under its event id, and the
 * id on the store's work queue of webhook deliveries, partitioned by widget, so that a partner's endpoint that is
 * down can be paused alone and several BFF instances share the work. An event is enqueued once (its id is the
 * key), delivered at least once, and sent again when the partner asks (a resend). Every delivery is in its
 * widget's sorted indexes (all, by state, by event type, by checkout; newest first), which the partner's
 * support desk pages through without a scan (`webhook-delivery-desk.ts`); those the release before wrote are put
 * there by the index build at start (`store/index-rebuild.ts`, through {@link WebhookQueue.indexedRecords}).
 *
 * Over 300 lines: a delivery's record, its queue item and its indexes are written together; the desk and the
 * sender have files of their own.
 */
import type { WebhookEvent } from '@esim-embed/shared';
import { z } from 'zod';
import { retentionMs as defaultRetention } from '../config/config-schema';
import { ApiError } from '../errors';
import type { IndexedRecords } from '../store/index-rebuild';
import { legacyIdListMover } from '../store/legacy-id-list';
import { type SortedIndex, STORE_KEYS, type Store } from '../store/store';
import { type ClaimOptions, QUEUE_NAMES, type QueueItem, type QueueStats } from '../store/work-queue';

/**
 * The version of the delivery record this release writes (records without one are version 1). Version 2 records
 * are in the indexes; an earlier one is put there by the index build at start, and again at its first update by
 * this release (the build may not have reached it yet).
 */
const DELIVERY_SCHEMA_VERSION = 2;

/** One attempt, as stored: when (ms since the epoch) and the receiver's HTTP status or the network failure. */
const AttemptSchema = z.object({ atMs: z.number(), result: z.string() });

/** One event on its way to one partner, as stored. */
const deliveryShape = {
  /** The event id (also the delivery's key). */
  id: z.string(),
  type: z.string(),
  widgetId: z.string(),
  /** The exact body to send (and sign) on every attempt. */
  body: z.string(),
  state: z.enum(['pending', 'delivered', 'gave_up']),
  attempts: z.int().min(0),
  /** ms since the epoch. */
  createdAtMs: z.number(),
  nextAttemptAtMs: z.number(),
  /** While an instance sends it, nobody else may (ms since the epoch). */
  leaseUntilMs: z.number().nullable(),
  /** The receiver's last HTTP status, or the network failure. */
  lastResult: z.string().nullable(),
  /** The checkout the event is about (records of the release before kept none: read from their event). */
  checkoutId: z.string().nullable().default(null),
  /** The eSIM the event names. */
  esimId: z.string().nullable().default(null),
  /** The latest attempts, oldest first (at most `WEBHOOK_DELIVERY_ATTEMPTS_LISTED`: what the desk lists). */
  history: z.array(AttemptSchema).default([]),
  /** When the partner last asked for it again (its retry span counts from then). */
  resentAtMs: z.number().nullable().default(null),
};
/**
 * Reads a stored delivery: loose, so a field written by a newer release survives this one's update (records
 * outlive a deploy; record-fixtures.test.ts reads those of earlier releases).
 */
export const WebhookDeliverySchema = z.looseObject({
  schemaVersion: z.int().min(1).default(1),
  ...deliveryShape,
});
export type WebhookDelivery = z.output<z.ZodObject<typeof deliveryShape>> & { schemaVersion?: number };

/** What the subject fields and history of a new delivery default to when its maker names none. */
type DeliveryDefaults = 'checkoutId' | 'esimId' | 'history' | 'resentAtMs';
/** A delivery to queue: its subject (checkout, eSIM) when it has one; no attempts or resend yet. */
export type NewWebhookDelivery = Omit<WebhookDelivery, DeliveryDefaults> &
  Partial<Pick<WebhookDelivery, DeliveryDefaults>>;

/** The names of the sorted indexes a delivery is in (members: delivery ids; score: `createdAtMs`). */
export const DELIVERY_INDEXES = {
  /** Every delivery of one widget. */
  all: (widgetId: string) => `webhook-deliveries:${widgetId}`,
  /** One widget's deliveries in one state (`pending`, `delivered`, `gave_up`). */
  state: (widgetId: string, state: WebhookDelivery['state']) =>
    `webhook-deliveries:${widgetId}:state:${state}`,
  /** One widget's deliveries of one event type. */
  type: (widgetId: string, type: string) => `webhook-deliveries:${widgetId}:type:${type}`,
  /** One widget's deliveries about one checkout. */
  checkout: (widgetId: string, checkoutId: string) => `webhook-deliveries:${widgetId}:checkout:${checkoutId}`,
} as const;

/** The checkout and the eSIM an event is about (what the partner's support desk filters and shows them by). */
export function eventSubject(event: WebhookEvent): { checkoutId: string | null; esimId: string | null } {
  switch (event.type) {
    case 'account.balance_low':
    case 'order.unmatched':
    case 'widget.sales_stopped':
    case 'widget.sales_resumed':
    case 'privacy.erased':
      return { checkoutId: null, esimId: null };
    case 'action_request.updated':
      return { checkoutId: null, esimId: event.data.actionRequest.esimId };
    default:
      return { checkoutId: event.data.checkout.id, esimId: event.data.esimId };
  }
}

/**
 * A stored delivery as this release reads it. One of the release before (version 1) kept no subject: it is the one
 * its event names, so that the desk shows and filters it by its checkout as any other.
 */
function readDelivery(value: string): WebhookDelivery {
  const delivery = WebhookDeliverySchema.parse(JSON.parse(value));
  if (delivery.schemaVersion >= 2 || delivery.checkoutId !== null || delivery.esimId !== null)
    return delivery;
  try {
    return { ...delivery, ...eventSubject(JSON.parse(delivery.body) as WebhookEvent) };
  } catch {
    return delivery;
  }
}

/** The JSON written for a delivery: this release's schema version stamped on it. */
const written = (delivery: WebhookDelivery) =>
  JSON.stringify({ ...delivery, schemaVersion: DELIVERY_SCHEMA_VERSION });

/** A delivery and the version it was read at. */
export interface StoredDelivery {
  delivery: WebhookDelivery;
  version: number;
}

/** The queue's operations. */
export interface WebhookQueue {
  /** Add a delivery unless one with its id exists; true when added. */
  enqueue(delivery: NewWebhookDelivery): Promise<boolean>;
  /**
   * Lease a bounded batch of due pending deliveries (see {@link WorkQueue.claim}); an id whose record is gone or
   * finished is taken off the queue instead.
   */
  claim(nowMs: number, options: ClaimOptions): Promise<StoredDelivery[]>;
  /** Replace a delivery read at `version`; null when someone else changed it first. */
  update(current: StoredDelivery, next: WebhookDelivery): Promise<StoredDelivery | null>;
  /** Make a queued delivery due at `atMs` (a retry's backoff, or given back unsent). */
  reschedule(id: string, atMs: number): Promise<void>;
  /** Claim nothing of one widget's deliveries before `untilMs` (0: go on now). A later call replaces it. */
  pauseWidget(widgetId: string, untilMs: number): Promise<void>;
  /** Take a finished delivery off the queue (its record stays for the logs' sake until it expires). */
  remove(id: string): Promise<void>;
  read(id: string): Promise<StoredDelivery | null>;
  /**
   * Send a delivery again now (the partner's resend): pending again, due at once, its retry span from `nowMs`.
   * The widget's pause is the caller's to lift (only a circuit's pause, never a batch's hold: see the desk). A
   * delivery still pending — due, waiting for its retry or behind its widget's circuit, or being sent — is on its
   * way already and is left as it is (`resent: false`). Null when there is no such delivery. A delivery that
   * changed under each of a few rounds (the sender settling its attempts at that moment) is left as it is and
   * refused `store_unavailable` (try again in a second).
   */
  resend(id: string, nowMs: number): Promise<{ stored: StoredDelivery; resent: boolean } | null>;
  /** The sorted index `name` (see {@link DELIVERY_INDEXES}). */
  index(name: string): SortedIndex;
  /** The deliveries as the index build at start reads and indexes them (the release before's are in none). */
  readonly indexedRecords: IndexedRecords<WebhookDelivery>;
  /** Depth, and when the longest-waiting delivery was queued (metrics). */
  stats(): Promise<QueueStats>;
  /**
   * Move the deliveries still pending on the release before's list onto the queue (the sender calls it every
   * round; it reads the store at once, then at most once a minute).
   */
  adoptLegacyList(nowMs: number): Promise<void>;
}

/** Rounds a resend tries its update in before it refuses (10, 20, 30, 40 ms apart). */
const RESEND_ROUNDS = 5;

/** The {@link WebhookQueue} over a store: records under their event id, ids on the store's work queue by widget. */
export function createWebhookQueue(
  store: Store,
  /**
   * How long a delivery record is kept after its last change (`retention.webhookDeliveryDays`, longer than its
   * retries); its index entries are written with it, with the same life, so they end together.
   */
  retentionMs: number = defaultRetention().webhookDeliveryMs,
  /** The BFF's clock (what a record's remaining life is counted on). Default `Date.now`. */
  now: () => number = Date.now,
): WebhookQueue {
  const queue = store.queue(QUEUE_NAMES.webhookDeliveries);

  async function read(id: string): Promise<StoredDelivery | null> {
    const stored = await store.get(STORE_KEYS.webhookDelivery(id));
    if (stored === null) return null;
    return { delivery: readDelivery(stored.value), version: stored.version };
  }

  const onQueue = (delivery: WebhookDelivery) =>
    queue.add({ id: delivery.id, partition: delivery.widgetId, dueAtMs: delivery.nextAttemptAtMs });

  /**
   * Put a delivery in every index it belongs to, and out of the state index of `previous` (a move): with the life
   * its record was just written with, so that they end together — or, for a record not written now (queued again,
   * indexed by the build at start), the life left after its last change this release can date (its creation, an
   * attempt, a resend), which ends no later than the record.
   */
  async function indexDelivery(
    delivery: WebhookDelivery,
    previous: WebhookDelivery['state'] | null,
    writtenNow = true,
  ) {
    const { id, widgetId, createdAtMs } = delivery;
    const lastChangeMs = Math.max(
      createdAtMs,
      delivery.resentAtMs ?? 0,
      ...delivery.history.map((attempt) => attempt.atMs),
    );
    const lifeMs = writtenNow ? retentionMs : lastChangeMs + retentionMs - now();
    if (lifeMs <= 0) return;
    const add = (name: string) => store.sortedIndex(name).add(id, createdAtMs, lifeMs);
    if (previous !== null && previous !== delivery.state)
      await store.sortedIndex(DELIVERY_INDEXES.state(widgetId, previous)).remove(id);
    await add(DELIVERY_INDEXES.state(widgetId, delivery.state));
    await add(DELIVERY_INDEXES.all(widgetId));
    await add(DELIVERY_INDEXES.type(widgetId, delivery.type));
    if (delivery.checkoutId !== null) await add(DELIVERY_INDEXES.checkout(widgetId, delivery.checkoutId));
  }

  async function update(current: StoredDelivery, next: WebhookDelivery): Promise<StoredDelivery | null> {
    const ok = await store.compareAndSet(
      STORE_KEYS.webhookDelivery(next.id),
      current.version,
      written(next),
      retentionMs,
    );
    if (!ok) return null;
    // Indexed whole with every write, so that its entries end with the record (which this write renewed).
    await indexDelivery(next, current.delivery.state);
    return { delivery: next, version: current.version + 1 };
  }

  return {
    async enqueue(newDelivery) {
      const delivery: WebhookDelivery = {
        checkoutId: null,
        esimId: null,
        history: [],
        resentAtMs: null,
        ...newDelivery,
      };
      const key = STORE_KEYS.webhookDelivery(delivery.id);
      const inserted = await store.insert(key, written(delivery), retentionMs);
      // Queued again (the same event id): a delivery still pending must be on the queue, even if the write that
      // put it there failed the first time; one already sent or given up stays off it.
      if (!inserted) {
        const existing = await read(delivery.id);
        if (existing?.delivery.state === 'pending') await onQueue(existing.delivery);
        if (existing !== null) await indexDelivery(existing.delivery, null, false);
        return false;
      }
      await indexDelivery(delivery, null);
      await onQueue(delivery);
      return true;
    },
    async claim(nowMs, options) {
      const items = await queue.claim(nowMs, options);
      const found = await Promise.all(items.map((item) => read(item.id)));
      const claimed: StoredDelivery[] = [];
      for (const [index, stored] of found.entries()) {
        if (stored?.delivery.state === 'pending') claimed.push(stored);
        else await queue.remove((items[index] as QueueItem).id);
      }
      return claimed;
    },
    update,
    async resend(id, nowMs) {
      // A few rounds, a little further apart each time: the sender may be settling an attempt of it right now.
      for (let round = 0; round < RESEND_ROUNDS; round += 1) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, round * 10));
        const current = await read(id);
        if (current === null) return null;
        if (current.delivery.state === 'pending') return { stored: current, resent: false };
        const next: WebhookDelivery = {
          ...current.delivery,
          state: 'pending',
          nextAttemptAtMs: nowMs,
          leaseUntilMs: null,
          resentAtMs: nowMs,
        };
        const stored = await update(current, next);
        if (stored === null) continue;
        if ((await queue.get(id)) === null) await onQueue(next);
        else await queue.reschedule(id, nowMs);
        return { stored, resent: true };
      }
      // Nothing was changed: the partner asks again in a moment (a 503 lets its Idempotency-Key go).
      throw new ApiError('store_unavailable', {
        retryAfterSeconds: 1,
        params: { reason: 'delivery_changing' },
      });
    },
    index: (name) => store.sortedIndex(name),
    indexedRecords: {
      kind: 'webhook-delivery',
      prefix: STORE_KEYS.webhookDelivery(''),
      read: readDelivery,
      async index(delivery) {
        await indexDelivery(delivery, null, false);
        return true;
      },
    },
    reschedule: (id, atMs) => queue.reschedule(id, atMs),
    pauseWidget: (widgetId, untilMs) => queue.pausePartition(widgetId, untilMs),
    remove: (id) => queue.remove(id),
    read,
    stats: () => queue.stats(),
    adoptLegacyList: legacyIdListMover(store, STORE_KEYS.legacyWebhookQueue(), queue, async (id) => {
      const stored = await read(id);
      return stored?.delivery.state === 'pending' ? stored.delivery.widgetId : null;
    }),
  };
}
