/**
 * @module
 * Which checkout each upstream order reference belongs to. An order is created with `externalRef` = its
 * checkout's id; before a checkout may place one (as it enters `placing`), the reference is recorded here with
 * its widget, insert-once, and kept well past the checkout record and any reconciliation pass. So an order
 * whose checkout record is gone is still known as ours, and only an order that no checkout of this BFF ever
 * owned is reported as unmatched. A reference also says until when its checkout cannot have expired: an order of
 * ours whose checkout is gone before then was lost with the store (a restored backup, a failover), not expired,
 * and is reported too.
 */
import { z } from 'zod';
import { retentionMs } from '../config/config-schema';
import { STORE_KEYS, type Store } from '../store/store';
import type { CheckoutRecord } from './checkout-record';

/**
 * The prefix of the `externalRef` of every action request this BFF makes (and of a reissue's new order): such a
 * reference names no checkout, and reconciliation passes it by.
 */
export const ACTION_REQUEST_REF_PREFIX = 'areq-';

/** A day: how long before an order's creation its checkout's last write may have been (references of old). */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One order reference as stored (read leniently: fields added later are kept). `recordedAt` (epoch ms) is when
 * its checkout entered `placing`; references of the releases before have none.
 */
const OrderReferenceSchema = z.looseObject({
  checkoutId: z.string(),
  widgetId: z.string(),
  recordedAt: z.number().optional(),
});
export type OrderReference = z.infer<typeof OrderReferenceSchema>;

/** Records and finds the checkout an upstream order reference belongs to. */
export interface OrderReferences {
  /** Remember that `checkout`'s id is its orders' reference (once; called before it may place one). */
  record(checkout: Pick<CheckoutRecord, 'id' | 'widgetId'>): Promise<void>;
  /** The checkout and widget that own `externalRef`, or null when none of this BFF ever did. */
  ownerOf(externalRef: string): Promise<OrderReference | null>;
  /**
   * Whether the checkout `owner` names must still be stored at `time` (its retention cannot have ended): its
   * record was written no earlier than the reference (or, for a reference of old, than a day before its order
   * `orderCreatedAt`), and a checkout is kept its retention after its last write.
   */
  keptAt(owner: OrderReference, orderCreatedAt: string, time: number): boolean;
}

/** The {@link OrderReferences} kept in `store`. */
export function createOrderReferences(
  store: Store,
  /** How long a checkout is kept after its last change (`retention.checkoutDays`). */
  checkoutRetentionMs: number = retentionMs().checkoutMs,
  now: () => number = Date.now,
): OrderReferences {
  /** How long a reference is kept: twice a checkout's retention, far past reconciliation's look-back. */
  const referenceKeptMs = 2 * checkoutRetentionMs;
  return {
    async record(checkout) {
      const reference: OrderReference = {
        checkoutId: checkout.id,
        widgetId: checkout.widgetId,
        recordedAt: now(),
      };
      // First writer wins: the reference is the checkout id, so a later write could only say the same.
      const key = STORE_KEYS.orderReference(checkout.id);
      await store.insert(key, JSON.stringify(reference), referenceKeptMs);
      // What tells reconciliation the order is ours: on the replicas before the order can exist.
      await store.confirmReplicated?.(key);
    },
    async ownerOf(externalRef) {
      const stored = await store.get(STORE_KEYS.orderReference(externalRef));
      if (stored === null) return null;
      const parsed = OrderReferenceSchema.safeParse(JSON.parse(stored.value));
      return parsed.success ? parsed.data : null;
    },
    keptAt(owner, orderCreatedAt, time) {
      const writtenFrom = owner.recordedAt ?? Date.parse(orderCreatedAt) - DAY_MS;
      return time < writtenFrom + checkoutRetentionMs;
    },
  };
}
