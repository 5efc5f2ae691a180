/**
 * @module
 * The `esim-checkout` event of a checkout: fired when the checkout is created, and again (`resumed: true`)
 * when a reload finds it still awaiting payment, so that the host page can open its payment form again, and
 * when the traveller tries another card after a decline (with the next attempt).
 */
import type { Checkout } from '@esim-embed/shared';
import { EsimCheckoutEvent } from '../events';

/** `esim-checkout` for `checkout`. */
export function checkoutEvent(checkout: Checkout, resumed: boolean): EsimCheckoutEvent {
  return new EsimCheckoutEvent({
    checkoutId: checkout.id,
    kind: checkout.kind ?? 'issue',
    esimId: checkout.esimId ?? null,
    mode: checkout.mode,
    amount: checkout.amount,
    email: checkout.email,
    resumed,
    attempt: checkout.declinedAttempts + 1,
  });
}
