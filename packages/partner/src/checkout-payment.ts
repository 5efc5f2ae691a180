/**
 * @module
 * The payment lifecycle of docs/payments.md around one `partner_confirm` checkout, in one call: read the checkout,
 * start the payment right before charging (the BFF funds the order and keeps it for this payment for a while, or
 * refuses before anyone is charged), charge its amount only while it awaits payment (once per attempt: the charge
 * is keyed by the checkout id, and after a decline by `<id>:attempt-<n>`), confirm with the payment's reference,
 * report a declined charge (the BFF's hold of the payment ends; the widget asks the traveller for another card),
 * and refund at once when the confirm comes too late (`invalid_transition`: the checkout expired or was cancelled
 * meanwhile). Refunds for checkouts that end later (`checkout.failed`, `.expired`, `.cancelled`, `.refunded`) come
 * by webhook.
 */
import { MAX_DECLINED_PAYMENT_ATTEMPTS, type PartnerCheckout, paymentAttemptKey } from '@esim-embed/shared';
import { PartnerApiError } from './partner-api-error';

/**
 * Thrown by your `charge` when the payment was definitively refused (the card was declined, the bank said no):
 * nothing was taken, and the traveller may try another card under the next attempt's key.
 *
 * @example
 * charge: async (checkout, key) => {
 *   const result = await provider.charge(checkout.amount, key);
 *   if (result.status === 'declined') throw new PaymentDeclinedError(result.declineCode);
 *   return result.id;
 * }
 */
export class PaymentDeclinedError extends Error {
  /** Your provider's reason, for your logs (never sent to the BFF). */
  readonly reason: string | null;
  constructor(reason?: string, options?: { cause?: unknown }) {
    super(`the payment was declined${reason ? `: ${reason}` : ''}`, options);
    this.name = 'PaymentDeclinedError';
    this.reason = reason ?? null;
  }
}

/** Your payment provider, as {@link payForCheckout} uses it. */
export interface CheckoutPayment {
  /**
   * Charge `checkout.amount` (the BFF's, never the page's) and answer the payment's reference. Use
   * `idempotencyKey` as your provider's idempotency key, so that a double submit charges once. Throw a
   * {@link PaymentDeclinedError} when the charge was declined (or answer true from `isDeclined`); any other
   * throw means the charge's fate is unknown: nothing is confirmed, and a later `pay` charges under the same key.
   */
  charge(checkout: PartnerCheckout, idempotencyKey: string): Promise<string> | string;
  /** Give back a charge whose checkout can no longer be confirmed (key the refund by the charge). */
  refund(checkout: PartnerCheckout, paymentReference: string): unknown;
  /** Whether an error your `charge` threw is a definitive decline (besides {@link PaymentDeclinedError}). */
  isDeclined?(error: unknown): boolean;
}

/** Options of one payment. */
export interface PayOptions {
  /**
   * The attempt to charge: 1 is keyed by the checkout id, n ≥ 2 by `<id>:attempt-<n>`. Default: the one after
   * the attempts the checkout says were declined (`declinedAttempts + 1`).
   */
  attempt?: number;
}

/** What a payment came to. */
export type CheckoutPaymentOutcome =
  /** Charged and confirmed: the order is being placed. */
  | { outcome: 'confirmed'; checkout: PartnerCheckout; paymentReference: string }
  /** Paid before (`placing`, `provisioning`, `ready`): nothing charged now. */
  | { outcome: 'already_paid'; checkout: PartnerCheckout; paymentReference: string | null }
  /**
   * Nothing left to pay for (`expired`, `cancelled`, `failed`, a `direct` checkout, or too many declined
   * attempts): nothing charged.
   */
  | { outcome: 'not_payable'; checkout: PartnerCheckout; paymentReference: null }
  /**
   * The charge was declined and reported: the checkout still awaits payment, the widget asks the traveller for
   * another card (`esim-payment-declined`), and the next `pay` charges attempt `attempt + 1`.
   */
  | {
      outcome: 'declined';
      checkout: PartnerCheckout;
      paymentReference: null;
      attempt: number;
      error: unknown;
    }
  /** Charged, but the checkout ended, or another charge paid it, before the confirm: refunded. */
  | { outcome: 'refunded'; checkout: PartnerCheckout; paymentReference: string }
  /**
   * Your account cannot fund the order now (`code`: `insufficient_balance`, `monthly_limit_exceeded`, …): nothing
   * charged. Cancel the checkout (the widget then offers to start again) and top up.
   */
  | { outcome: 'unfunded'; checkout: PartnerCheckout; paymentReference: null; code: string }
  /**
   * The BFF started no payment: the address or the session that opened the checkout (`scope`: `address`,
   * `session`), or your account (`account`), already has as many payments in progress — started, neither
   * confirmed nor declined — as it allows (`paymentHolds` in its config). Nothing charged; the checkout still
   * awaits payment. Ask the traveller to finish or give up the other payment, or to try again after
   * `retryAfterSeconds`.
   */
  | {
      outcome: 'too_many_payments';
      checkout: PartnerCheckout;
      paymentReference: null;
      scope: string;
      retryAfterSeconds: number | null;
    };

const PAID = new Set(['placing', 'provisioning', 'ready']);

/** The calls {@link payForCheckout} makes. */
interface CheckoutCalls {
  read(checkoutId: string): Promise<PartnerCheckout>;
  startPayment(checkoutId: string): Promise<PartnerCheckout>;
  confirm(checkoutId: string, body: { paymentReference: string }): Promise<PartnerCheckout>;
  decline(checkoutId: string, body: { attempt: number }): Promise<PartnerCheckout>;
}

const endedMeanwhile = (error: unknown) =>
  error instanceof PartnerApiError && error.code === 'invalid_transition';

/** The BFF's refusal of one more payment in progress (its `paymentHolds` caps). */
const tooManyPayments = (error: PartnerApiError) =>
  error.code === 'rate_limited' && error.params.reason === 'payments_in_progress';

/**
 * Pays for a checkout as docs/payments.md says; a confirm that got no answer after the client's retries is
 * thrown (charged, unconfirmed: a later `pay` confirms it, or the checkout's end refunds it by webhook), and so
 * is a charge that failed without being declined (its fate unknown: a later `pay` uses the same key).
 *
 * `payment-started` is called once per call, right before the charge: the BFF keeps the order's money for this
 * payment (for its `paymentHolds.holdSeconds`, 15 minutes unless configured) until it is confirmed or declined.
 * Calling `pay` again for the same attempt while that payment runs (a resubmitted form, a retry after an unknown
 * charge) starts nothing new: the BFF answers the payment in progress as it is, neither renewed nor counted twice.
 */
export async function payForCheckout(
  checkouts: CheckoutCalls,
  checkoutId: string,
  payment: CheckoutPayment,
  options: PayOptions = {},
): Promise<CheckoutPaymentOutcome> {
  const checkout = await checkouts.read(checkoutId);
  if (PAID.has(checkout.status))
    return { outcome: 'already_paid', checkout, paymentReference: checkout.paymentReference };
  const attempt = options.attempt ?? checkout.declinedAttempts + 1;
  if (
    checkout.status !== 'awaiting_payment' ||
    checkout.mode !== 'partner_confirm' ||
    attempt > MAX_DECLINED_PAYMENT_ATTEMPTS
  )
    return { outcome: 'not_payable', checkout, paymentReference: null };
  try {
    await checkouts.startPayment(checkout.id);
  } catch (error) {
    if (!(error instanceof PartnerApiError)) throw error;
    if (error.params.stage === 'before_payment')
      return { outcome: 'unfunded', checkout, paymentReference: null, code: error.code };
    if (tooManyPayments(error)) {
      return {
        outcome: 'too_many_payments',
        checkout,
        paymentReference: null,
        scope: String(error.params.scope ?? 'account'),
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }
    // Ended between the read and the start: nothing to pay for, nothing charged.
    if (endedMeanwhile(error))
      return { outcome: 'not_payable', checkout: await checkouts.read(checkout.id), paymentReference: null };
    throw error;
  }
  let paymentReference: string;
  try {
    paymentReference = await payment.charge(checkout, paymentAttemptKey(checkout.id, attempt));
  } catch (error) {
    if (!(error instanceof PaymentDeclinedError || payment.isDeclined?.(error) === true)) throw error;
    try {
      const declined = await checkouts.decline(checkout.id, { attempt });
      return { outcome: 'declined', checkout: declined, paymentReference: null, attempt, error };
    } catch (failure) {
      if (!endedMeanwhile(failure)) throw failure;
      // Ended while the card was tried (expired, cancelled): nothing was taken, nothing is left to pay for.
      return { outcome: 'not_payable', checkout: await checkouts.read(checkout.id), paymentReference: null };
    }
  }
  try {
    const confirmed = await checkouts.confirm(checkout.id, { paymentReference });
    // A checkout another charge paid (a pay under another attempt's key) makes this one surplus: the BFF refuses
    // its confirm (`invalid_transition`, refunded below); an answer naming the other charge is refunded as well.
    if (confirmed.paymentReference === paymentReference)
      return { outcome: 'confirmed', checkout: confirmed, paymentReference };
    await payment.refund(checkout, paymentReference);
    return { outcome: 'refunded', checkout: confirmed, paymentReference };
  } catch (error) {
    if (!endedMeanwhile(error)) throw error;
    await payment.refund(checkout, paymentReference);
    return { outcome: 'refunded', checkout: await checkouts.read(checkout.id), paymentReference };
  }
}
