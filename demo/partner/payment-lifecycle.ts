/**
 * @module
 * The payment lifecycle a partner implements around a `partner_confirm` checkout (docs/payments.md): start the
 * payment (funded firmly, or refused before any charge); charge the amount the BFF holds, once per attempt;
 * confirm; report a declined attempt (the widget asks for another card); refund when the confirm comes too late
 * (409) or the order fails after it; cancel when the traveller gives up; and the asynchronous variant, where the
 * bank answers later and the confirm follows the provider's webhook. Each step is written to the partner's ledger (memory here; a
 * real partner's database).
 */
import { type PartnerCheckout, paymentAttemptKey, type WebhookEvent } from '@esim-embed/partner';
import type { PartnerApiClient } from './partner-api-client';
import {
  type Charge,
  IdempotencyMismatchError,
  type PretendProvider,
  type Refund,
  type TestPaymentMethod,
} from './pretend-provider';

/** What a payment attempt came to. */
export type PaymentOutcome =
  | { outcome: 'confirmed'; chargeId: string | null; checkout: PartnerCheckout }
  | { outcome: 'requires_action'; chargeId: string }
  | { outcome: 'declined'; chargeId: string }
  | { outcome: 'cancelled'; checkout: PartnerCheckout }
  | { outcome: 'refunded'; chargeId: string; refundId: string; reason: string }
  /** Charged, but the BFF did not answer the confirm: a later confirm or the checkout's end settles it. */
  | { outcome: 'confirm_pending'; chargeId: string }
  /** Nothing was charged: the checkout cannot be paid (expired, cancelled, unknown…) or another payment runs. */
  | { outcome: 'refused'; status: number; code: string; params: Record<string, unknown> };

/** One line of the partner's ledger about its calls and the events it received. */
export interface LedgerEvent {
  at: string;
  checkoutId: string;
  kind: 'confirm' | 'decline' | 'cancel' | 'esim_webhook' | 'provider_webhook';
  /** The BFF's answer status (calls), the event type (BFF webhooks) or the charge status (provider webhooks). */
  result: string;
  detail?: Record<string, unknown>;
}

/** Everything the partner charged, refunded, called and received, for one checkout or all. */
export interface PartnerLedger {
  charges: Charge[];
  refunds: Refund[];
  events: LedgerEvent[];
}

export interface PaymentLifecycle {
  /** The traveller pressed "Pay" (maybe twice): charge once, then confirm. */
  pay(checkoutId: string, paymentMethod: TestPaymentMethod): Promise<PaymentOutcome>;
  /** The provider says a charge settled: read it, and confirm (or refund) as its status says. */
  chargeSettled(chargeId: string): Promise<void>;
  /** The traveller closed the payment form without paying. */
  abandon(checkoutId: string): Promise<PaymentOutcome>;
  /** A verified, first-time BFF webhook. */
  checkoutEvent(event: WebhookEvent): Promise<void>;
  ledger(checkoutId?: string): PartnerLedger;
}

const PAID = ['placing', 'provisioning', 'ready'];

/** The lifecycle over one provider and one BFF. */
export function createPaymentLifecycle(deps: {
  provider: PretendProvider;
  bff: PartnerApiClient;
}): PaymentLifecycle {
  const { provider, bff } = deps;
  /** The partner's own table: the charges made for each checkout, in order. */
  const chargesOf = new Map<string, string[]>();
  const events: LedgerEvent[] = [];

  const record = (event: Omit<LedgerEvent, 'at'>) => events.push({ at: new Date().toISOString(), ...event });
  const charges = (checkoutId: string) =>
    (chargesOf.get(checkoutId) ?? []).flatMap((id) => provider.getCharge(id) ?? []);

  /**
   * The idempotency key of the next charge: the checkout id, so a double submit charges once. Only after a
   * charge definitively failed (declined, voided) may the traveller try again, under the next attempt's key.
   */
  function chargeKey(checkoutId: string): string {
    const over = charges(checkoutId).filter(
      (charge) => charge.status === 'failed' || charge.status === 'cancelled',
    );
    return paymentAttemptKey(checkoutId, over.length + 1);
  }

  /** A declined charge is reported to the BFF under its attempt's number: the widget asks for another card. */
  async function declined(charge: Charge): Promise<void> {
    const attempt = Number(charge.idempotencyKey.split(':attempt-')[1] ?? 1);
    const answer = await bff.decline(charge.reference, attempt);
    record({
      checkoutId: charge.reference,
      kind: 'decline',
      result: String(answer.status),
      detail: answer.ok
        ? { chargeId: charge.id, attempt }
        : { chargeId: charge.id, attempt, code: answer.code },
    });
  }

  function refund(charge: Charge, reason: string): Refund | undefined {
    if (charge.status === 'requires_action') provider.cancelCharge(charge.id);
    return provider.refund(charge.id, reason);
  }

  async function confirmPaid(checkoutId: string, charge: Charge): Promise<PaymentOutcome> {
    const answer = await bff.confirm(checkoutId, charge.id);
    record({
      checkoutId,
      kind: 'confirm',
      result: String(answer.status),
      detail: answer.ok
        ? { chargeId: charge.id }
        : { chargeId: charge.id, code: answer.code, ...answer.params },
    });
    if (answer.ok) return { outcome: 'confirmed', chargeId: charge.id, checkout: answer.checkout };
    if (answer.status === 409 && answer.code === 'invalid_transition') {
      // The checkout ended (expired, cancelled) while the traveller paid: no order will come, give the money back.
      const reason = `confirm refused: checkout ${String(answer.params.status ?? 'not payable')}`;
      const given = refund(charge, reason);
      if (given !== undefined)
        return { outcome: 'refunded', chargeId: charge.id, refundId: given.id, reason };
    }
    return { outcome: 'confirm_pending', chargeId: charge.id };
  }

  return {
    async pay(checkoutId, paymentMethod) {
      // The amount comes from the BFF, never from the browser.
      const read = await bff.read(checkoutId);
      if (!read.ok) return { outcome: 'refused', status: read.status, code: read.code, params: read.params };
      const checkout = read.checkout;
      if (PAID.includes(checkout.status)) {
        return { outcome: 'confirmed', chargeId: checkout.paymentReference, checkout };
      }
      if (checkout.mode !== 'partner_confirm' || checkout.status !== 'awaiting_payment') {
        return {
          outcome: 'refused',
          status: 409,
          code: 'invalid_transition',
          params: { status: checkout.status },
        };
      }
      // Before any charge: the BFF funds the order firmly, or says why it cannot (the balance, the monthly limit).
      const started = await bff.startPayment(checkoutId);
      if (!started.ok) {
        return { outcome: 'refused', status: started.status, code: started.code, params: started.params };
      }
      let charge: Charge;
      try {
        charge = provider.createCharge({
          idempotencyKey: chargeKey(checkoutId),
          amount: checkout.amount,
          paymentMethod,
          reference: checkoutId,
        });
      } catch (error) {
        if (!(error instanceof IdempotencyMismatchError)) throw error;
        // Another card while the first one's bank approval is still open.
        return { outcome: 'refused', status: 409, code: 'payment_in_progress', params: {} };
      }
      const known = chargesOf.get(checkoutId) ?? [];
      if (!known.includes(charge.id)) chargesOf.set(checkoutId, [...known, charge.id]);
      switch (charge.status) {
        case 'succeeded':
          return await confirmPaid(checkoutId, charge);
        case 'requires_action':
          return { outcome: 'requires_action', chargeId: charge.id };
        case 'failed':
          await declined(charge);
          return { outcome: 'declined', chargeId: charge.id };
        default:
          return { outcome: 'refused', status: 409, code: 'payment_cancelled', params: {} };
      }
    },

    async chargeSettled(chargeId) {
      // Never act on a webhook's word alone: read the charge from the provider.
      const charge = provider.getCharge(chargeId);
      if (charge === undefined || !chargesOf.has(charge.reference)) return;
      record({
        checkoutId: charge.reference,
        kind: 'provider_webhook',
        result: charge.status,
        detail: { chargeId },
      });
      if (charge.status === 'succeeded') await confirmPaid(charge.reference, charge);
      else if (charge.status === 'failed') await declined(charge);
    },

    async abandon(checkoutId) {
      const settled = charges(checkoutId).find((charge) => charge.status === 'succeeded');
      if (settled !== undefined) {
        // The money is taken and the confirm is on its way: cancelling now would race it.
        return { outcome: 'refused', status: 409, code: 'already_paid', params: { chargeId: settled.id } };
      }
      for (const charge of charges(checkoutId)) provider.cancelCharge(charge.id);
      const answer = await bff.cancel(checkoutId);
      record({
        checkoutId,
        kind: 'cancel',
        result: String(answer.status),
        detail: answer.ok ? {} : { code: answer.code, ...answer.params },
      });
      if (answer.ok) return { outcome: 'cancelled', checkout: answer.checkout };
      return { outcome: 'refused', status: answer.status, code: answer.code, params: answer.params };
    },

    async checkoutEvent(event) {
      if (!('checkout' in event.data)) return;
      const checkout = event.data.checkout;
      record({
        checkoutId: checkout.id,
        kind: 'esim_webhook',
        result: event.type,
        detail: { eventId: event.id, status: checkout.status },
      });
      if (!['checkout.failed', 'checkout.cancelled', 'checkout.expired'].includes(event.type)) return;
      // The sale is over without an eSIM: whatever was taken for it goes back, whatever waits is voided.
      const reason = checkout.failure === null ? event.type : `${event.type}: ${checkout.failure.code}`;
      for (const charge of charges(checkout.id)) refund(charge, reason);
    },

    ledger(checkoutId) {
      const mine = (reference: string) => checkoutId === undefined || reference === checkoutId;
      return {
        charges: provider.charges().filter((charge) => mine(charge.reference)),
        refunds: provider.refunds().filter((refund) => mine(refund.reference)),
        events: events.filter((event) => mine(event.checkoutId)),
      };
    },
  };
}
