/**
 * @module
 * A checkout event's body keeps no e-mail address while it waits: it is queued with the checkout's `email`
 * null, and the address is put in from the checkout as it is when the body leaves — sent (and signed), read by the
 * partner's desk, answered again from a kept answer. So the address lives in one record, the checkout, and an
 * erased traveller's pending events go without it. A body a release before this one queued with the address is
 * sent as it was, its address replaced by the checkout's as it is now (none once erased).
 */
import type { WebhookEvent } from '@esim-embed/shared';
import type { CheckoutRepository } from '../checkout/checkout-record';
import type { WebhookDelivery } from './webhook-queue';

/** The part of an event that names a checkout and its traveller (checkout events). */
type WithCheckout = { data: { checkout: { id: string; email: string | null } } };

const namesTraveller = (event: unknown): event is WithCheckout => {
  const checkout = (event as { data?: { checkout?: unknown } } | null)?.data?.checkout;
  return (
    typeof checkout === 'object' &&
    checkout !== null &&
    'email' in checkout &&
    typeof (checkout as { id?: unknown }).id === 'string'
  );
};

/** `event` as it is queued and kept: a checkout's traveller left out. */
export function withoutTraveller<E extends WebhookEvent>(event: E): E {
  if (!namesTraveller(event)) return event;
  return { ...event, data: { ...event.data, checkout: { ...event.data.checkout, email: null } } } as E;
}

/** Renders events with their traveller, read from the checkout at that moment. */
export interface WebhookBodies {
  /** `event` with its checkout's address as the checkout holds it now (null when it holds none). */
  withTraveller<E extends WebhookEvent>(event: E): Promise<E>;
  /** The body a delivery sends now (signed as it is). */
  bodyOf(delivery: Pick<WebhookDelivery, 'body'>): Promise<string>;
}

/** The {@link WebhookBodies} reading checkouts from `checkouts`. */
export function createWebhookBodies(checkouts: Pick<CheckoutRepository, 'getCheckout'>): WebhookBodies {
  async function withTraveller<E extends WebhookEvent>(event: E): Promise<E> {
    if (!namesTraveller(event)) return event;
    const stored = await checkouts.getCheckout(event.data.checkout.id);
    // A checkout no longer kept: the body as queued (an earlier release's may carry the address still).
    if (stored === null) return event;
    const email = stored.record.email;
    if (email === event.data.checkout.email) return event;
    return { ...event, data: { ...event.data, checkout: { ...event.data.checkout, email } } } as E;
  }
  return {
    withTraveller,
    async bodyOf(delivery) {
      const event = JSON.parse(delivery.body) as WebhookEvent;
      if (!namesTraveller(event)) return delivery.body;
      const rendered = await withTraveller(event);
      return rendered === event ? delivery.body : JSON.stringify(rendered);
    },
  };
}
