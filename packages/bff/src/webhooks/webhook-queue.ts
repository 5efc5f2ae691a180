/**
 * @module
 * The webhook delivery queue in the store (memory or Redis, the same small interface): one record per
 * delivery, and one list of the ids still to deliver, changed only by compare-and-set so that several BFF
 * instances can share it. An event is enqueued once (its id is the key), delivered at least once.
 */
import { z } from 'zod';
import { STORE_KEYS, type Store, type Versioned } from '../store/store';

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
  /** The pending deliveries whose next attempt is due at `nowMs` and that nobody holds. */
  due(nowMs: number): Promise<StoredDelivery[]>;
  /** Replace a delivery read at `version`; null when someone else changed it first. */
  update(current: StoredDelivery, next: WebhookDelivery): Promise<StoredDelivery | null>;
  /** Take a finished delivery off the list (its record stays for the logs' sake until it expires). */
  remove(id: string): Promise<void>;
  read(id: string): Promise<StoredDelivery | null>;
  /** The ids still on the list. */
  pendingIds(): Promise<string[]>;
}

const parseList = (stored: Versioned | null): string[] =>
  stored === null ? [] : z.array(z.string()).parse(JSON.parse(stored.value));

/** The {@link WebhookQueue} over a store. */
export function createWebhookQueue(store: Store): WebhookQueue {
  const listKey = STORE_KEYS.webhookQueue();

  async function changeList(change: (ids: string[]) => string[]): Promise<void> {
    for (let round = 0; round < 50; round += 1) {
      const stored = await store.get(listKey);
      const next = JSON.stringify(change(parseList(stored)));
      const ok =
        stored === null
          ? await store.insert(listKey, next, DELIVERY_RETENTION_MS)
          : await store.compareAndSet(listKey, stored.version, next, DELIVERY_RETENTION_MS);
      if (ok) return;
    }
    throw new Error('the webhook queue kept changing: could not update its list');
  }

  async function read(id: string): Promise<StoredDelivery | null> {
    const stored = await store.get(STORE_KEYS.webhookDelivery(id));
    if (stored === null) return null;
    return { delivery: WebhookDeliverySchema.parse(JSON.parse(stored.value)), version: stored.version };
  }

  return {
    async enqueue(delivery) {
      const key = STORE_KEYS.webhookDelivery(delivery.id);
      const inserted = await store.insert(key, written(delivery), DELIVERY_RETENTION_MS);
      // Queued again (the same event id): a delivery still pending must be on the list, even if the write that
      // put it there failed the first time; one already sent or given up stays off it.
      if (!inserted && (await read(delivery.id))?.delivery.state !== 'pending') return false;
      await changeList((ids) => (ids.includes(delivery.id) ? ids : [...ids, delivery.id]));
      return inserted;
    },
    async due(nowMs) {
      const found: StoredDelivery[] = [];
      for (const id of parseList(await store.get(listKey))) {
        const stored = await read(id);
        if (stored === null) continue;
        const { delivery } = stored;
        if (delivery.state !== 'pending' || delivery.nextAttemptAtMs > nowMs) continue;
        if (delivery.leaseUntilMs !== null && delivery.leaseUntilMs > nowMs) continue;
        found.push(stored);
      }
      return found;
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
    async remove(id) {
      await changeList((ids) => ids.filter((candidate) => candidate !== id));
    },
    read,
    async pendingIds() {
      return parseList(await store.get(listKey));
    },
  };
}
