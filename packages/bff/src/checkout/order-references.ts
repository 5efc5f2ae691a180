/**
 * @module
 * Which checkout each upstream order reference belongs to. An order is created with `externalRef` = its
 * checkout's id; before a checkout may place one (as it enters `placing`), the reference is recorded here with
 * its widget, insert-once, and kept well past the checkout record and any reconciliation pass. So an order
 * whose checkout record is gone (expired, or lost) is still known as ours, and only an order that no checkout
 * of this BFF ever owned is reported as unmatched.
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

/** One order reference as stored (read leniently: fields added later are kept). */
const OrderReferenceSchema = z.looseObject({ checkoutId: z.string(), widgetId: z.string() });
export type OrderReference = z.infer<typeof OrderReferenceSchema>;

/** Records and finds the checkout an upstream order reference belongs to. */
export interface OrderReferences {
  /** Remember that `checkout`'s id is its orders' reference (once; called before it may place one). */
  record(checkout: Pick<CheckoutRecord, 'id' | 'widgetId'>): Promise<void>;
  /** The checkout and widget that own `externalRef`, or null when none of this BFF ever did. */
  ownerOf(externalRef: string): Promise<OrderReference | null>;
}

/** The {@link OrderReferences} kept in `store`. */
export function createOrderReferences(
  store: Store,
  /** How long a checkout is kept after its last change (`retention.checkoutDays`). */
  checkoutRetentionMs: number = retentionMs().checkoutMs,
): OrderReferences {
  /** How long a reference is kept: twice a checkout's retention, far past reconciliation's look-back. */
  const referenceKeptMs = 2 * checkoutRetentionMs;
  return {
    async record(checkout) {
      const reference: OrderReference = { checkoutId: checkout.id, widgetId: checkout.widgetId };
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
  };
}
