/**
 * @module
 * How an upstream order's status becomes the checkout status the traveller sees, and which failures a
 * traveller may retry (with a new checkout).
 */
import type { CheckoutStatus, Order, OrderStatus } from '@esim-embed/shared';

/**
 * `draft` and `awaiting_payment` are the upstream's own steps before it provisions (the traveller already
 * paid the partner): the checkout keeps polling. A refund only asked for leaves the eSIM usable (`ready`);
 * a refunded order ends the checkout (`cancelled`).
 */
const STATUS_BY_ORDER_STATUS: Record<OrderStatus, CheckoutStatus> = {
  draft: 'provisioning',
  awaiting_payment: 'provisioning',
  paid: 'provisioning',
  provisioning: 'provisioning',
  delivered: 'ready',
  completed: 'ready',
  expired_unpaid: 'failed',
  provisioning_failed: 'failed',
  refund_requested: 'ready',
  refunded: 'cancelled',
};

/** The checkout status an order's status means. */
export function checkoutStatusFor(order: Pick<Order, 'status'>): CheckoutStatus {
  return STATUS_BY_ORDER_STATUS[order.status];
}

/** Codes after which a new checkout may well succeed (the traveller can try again). */
const RETRYABLE_FAILURES = new Set([
  'quote_expired',
  'price_changed',
  'quote_consumed',
  'provisioning_failed',
  'expired_unpaid',
  'upstream_unavailable',
  'rate_limited',
]);

/** The failure a checkout records for an error code. */
export function failureFor(code: string): { code: string; retryable: boolean } {
  return { code, retryable: RETRYABLE_FAILURES.has(code) };
}

/** The failure an order in a failed state records. */
export function orderFailure(order: Pick<Order, 'status'>): { code: string; retryable: boolean } | null {
  if (order.status === 'provisioning_failed' || order.status === 'expired_unpaid')
    return failureFor(order.status);
  return null;
}
