/**
 * @module
 * The payment lifecycle of docs/payments.md around one `partner_confirm` checkout, in one call: read the checkout,
 * start the payment (the BFF funds the order firmly, or refuses before anyone is charged), charge its amount only
 * while it awaits payment (once: the charge is keyed by the checkout id), confirm with the payment's reference,
 * and refund at once when the confirm comes too late (`invalid_transition`: the checkout expired or was cancelled
 * meanwhile). Refunds for checkouts that end later (`checkout.failed`, `.expired`, `.cancelled`) come by webhook.
 */
import type { PartnerCheckout } from '@esim-embed/shared';
import { PartnerApiError } from './partner-api-error';

/** Your payment provider, as {@link payForCheckout} uses it. */
export interface CheckoutPayment {
  /**
   * Charge `checkout.amount` (the BFF's, never the page's) and answer the payment's reference. Use
   * `idempotencyKey` as your provider's idempotency key, so that a double submit charges once. Throw when the
   * charge fails (declined): nothing is confirmed.
   */
  charge(checkout: PartnerCheckout, idempotencyKey: string): Promise<string> | string;
  /** Give back a charge whose checkout can no longer be confirmed (key the refund by the charge). */
  refund(checkout: PartnerCheckout, paymentReference: string): unknown;
}

/** What a payment came to. */
export type CheckoutPaymentOutcome =
  /** Charged and confirmed: the order is being placed. */
  | { outcome: 'confirmed'; checkout: PartnerCheckout; paymentReference: string }
  /** Paid before (`placing`, `provisioning`, `ready`): nothing charged now. */
  | { outcome: 'already_paid'; checkout: PartnerCheckout; paymentReference: string | null }
  /** Nothing left to pay for (`expired`, `cancelled`, `failed`, or a `direct` checkout): nothing charged. */
  | { outcome: 'not_payable'; checkout: PartnerCheckout; paymentReference: null }
  /** Charged, but the checkout ended before the confirm: refunded. */
  | { outcome: 'refunded'; checkout: PartnerCheckout; paymentReference: string }
  /**
   * Your account cannot fund the order now (`code`: `insufficient_balance`, `monthly_limit_exceeded`, …): nothing
   * charged. Cancel the checkout (the widget then offers to start again) and top up.
   */
  | { outcome: 'unfunded'; checkout: PartnerCheckout; paymentReference: null; code: string };

const PAID = new Set(['placing', 'provisioning', 'ready']);

/** The calls {@link payForCheckout} makes. */
interface CheckoutCalls {
  read(checkoutId: string): Promise<PartnerCheckout>;
  startPayment(checkoutId: string): Promise<PartnerCheckout>;
  confirm(checkoutId: string, body: { paymentReference: string }): Promise<PartnerCheckout>;
}

/**
 * Pays for a checkout as docs/payments.md says; a confirm that got no answer after the client's retries is
 * thrown (charged, unconfirmed: a later `pay` confirms it, or the checkout's end refunds it by webhook).
 */
export async function payForCheckout(
  checkouts: CheckoutCalls,
  checkoutId: string,
  payment: CheckoutPayment,
): Promise<CheckoutPaymentOutcome> {
  const checkout = await checkouts.read(checkoutId);
  if (PAID.has(checkout.status))
    return { outcome: 'already_paid', checkout, paymentReference: checkout.paymentReference };
  if (checkout.status !== 'awaiting_payment' || checkout.mode !== 'partner_confirm')
    return { outcome: 'not_payable', checkout, paymentReference: null };
  try {
    await checkouts.startPayment(checkout.id);
  } catch (error) {
    if (!(error instanceof PartnerApiError)) throw error;
    if (error.params.stage === 'before_payment')
      return { outcome: 'unfunded', checkout, paymentReference: null, code: error.code };
    // Ended between the read and the start: nothing to pay for, nothing charged.
    if (error.code === 'invalid_transition')
      return { outcome: 'not_payable', checkout: await checkouts.read(checkout.id), paymentReference: null };
    throw error;
  }
  const paymentReference = await payment.charge(checkout, checkout.id);
  try {
    const confirmed = await checkouts.confirm(checkout.id, { paymentReference });
    return { outcome: 'confirmed', checkout: confirmed, paymentReference };
  } catch (error) {
    if (!(error instanceof PartnerApiError && error.code === 'invalid_transition')) throw error;
    await payment.refund(checkout, paymentReference);
    return { outcome: 'refunded', checkout: await checkouts.read(checkout.id), paymentReference };
  }
}
