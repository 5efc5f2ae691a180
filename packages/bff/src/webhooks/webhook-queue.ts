/**
 * @module
 * The webhook delivery queue in the store (memory, Redis): one record per delivery under its event id, and the
 * id on the store's work queue of webhook deliveries, partitioned by widget, so that a partner's endpoint that is
 * down can be paused alone and several BFF instances share the work. An event is enqueued once (its id is the
 * key), delivered at least once.
 */
import { z } from 'zod';
import { legacyIdListMover } from '../store/legacy-id-list';
import { STORE_KEYS, type Store } from '../store/store';
import { type ClaimOptions, QUEUE_NAMES, type QueueItem, type QueueStats } from '../store/work-queue';

/** How long a delivery record is kept after its last change (a little over the longest retry span). */
const DELIVERY_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;

/** The version of the delivery record this release writes (records without one are version 1). */
const DELIVERY_SCHEMA_VERSION = 1;

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
};
/**
 * Reads a stored delivery: loose, so a field written by a newer release survives this one's update (records
 * outlive a deploy; record-fixtures.test.ts reads those of earlier releases).
 */
export const WebhookDeliverySchema = z.looseObject({
  schemaVersion: z.int().min(1).default(DELIVERY_SCHEMA_VERSION),
  ...deliveryShape,
});
export type WebhookDelivery = z.infer<z.ZodObject<typeof deliveryShape>> & { schemaVersion?: number };

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
  enqueue(delivery: WebhookDelivery): Promise<boolean>;
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
  /** Depth, and when the longest-waiting delivery was queued (metrics). */
  stats(): Promise<QueueStats>;
  /**
   * Move the deliveries still pending on the release before's list onto the queue (the sender calls it every
   * round; it reads the store at once, then at most once a minute).
   */
  adoptLegacyList(nowMs: number): Promise<void>;
}

/** The {@link WebhookQueue} over a store: records under their event id, ids on the store's work queue by widget. */
export function createWebhookQueue(store: Store): WebhookQueue {
  const queue = store.queue(QUEUE_NAMES.webhookDeliveries);

  async function read(id: string): Promise<StoredDelivery | null> {
    const stored = await store.get(STORE_KEYS.webhookDelivery(id));
    if (stored === null) return null;
    return { delivery: WebhookDeliverySchema.parse(JSON.parse(stored.value)), version: stored.version };
  }

  const onQueue = (delivery: WebhookDelivery) =>
    queue.add({ id: delivery.id, partition: delivery.widgetId, dueAtMs: delivery.nextAttemptAtMs });

  return {
    async enqueue(delivery) {
      const key = STORE_KEYS.webhookDelivery(delivery.id);
      const inserted = await store.insert(key, written(delivery), DELIVERY_RETENTION_MS);
      // Queued again (the same event id): a delivery still pending must be on the queue, even if the write that
      // put it there failed the first time; one already sent or given up stays off it.
      if (!inserted) {
        const existing = await read(delivery.id);
        if (existing?.delivery.state === 'pending') await onQueue(existing.delivery);
        return false;
      }
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
    async update(current, next) {
      const ok = await store.compareAndSet(
        STORE_KEYS.webhookDelivery(next.id),
        current.version,
        written(next),
        DELIVERY_RETENTION_MS,
      );
      return ok ? { delivery: next, version: current.version + 1 } : null;
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
