/**
 * @module
 * A pretend payment provider, shaped like a real one's API so that the partner server around it reads like
 * production code: charges keyed by an idempotency key, test payment methods that succeed, decline or ask the
 * bank first (3-D Secure), refunds, and a webhook to the merchant when an asynchronous charge settles. It moves
 * no money; everything lives in memory.
 */

/** Money in minor units, as the BFF states it. */
export interface Money {
  amountMinor: number;
  currency: string;
}

/** The provider's test payment methods, as the payment form tokenises its test cards. */
export const TEST_PAYMENT_METHODS = {
  /** Approved at once. */
  visa: 'pm_card_visa',
  /** The bank asks the traveller to approve first (3-D Secure): the charge settles later. */
  threeDSecure: 'pm_card_three_d_secure',
  /** Declined by the bank. */
  declined: 'pm_card_declined',
} as const;
export type TestPaymentMethod = (typeof TEST_PAYMENT_METHODS)[keyof typeof TEST_PAYMENT_METHODS];

export function isTestPaymentMethod(value: unknown): value is TestPaymentMethod {
  return (Object.values(TEST_PAYMENT_METHODS) as unknown[]).includes(value);
}

/** A charge: `requires_action` waits for the bank; `cancelled` was voided before it settled. */
export interface Charge {
  id: string;
  idempotencyKey: string;
  amount: Money;
  paymentMethod: TestPaymentMethod;
  status: 'succeeded' | 'requires_action' | 'failed' | 'cancelled';
  /** The merchant's own reference (here: the checkout id). */
  reference: string;
  createdAt: string;
  settledAt: string | null;
}

/** Money given back for a succeeded charge. */
export interface Refund {
  id: string;
  chargeId: string;
  reference: string;
  amount: Money;
  reason: string;
  createdAt: string;
}

/** A charge request with the same idempotency key as an earlier, different one. */
export class IdempotencyMismatchError extends Error {
  constructor(key: string) {
    super(`idempotency key ${key} was used for another charge: use a new key for a new charge`);
    this.name = 'IdempotencyMismatchError';
  }
}

export interface PretendProviderOptions {
  /** Tells the merchant that a charge settled (the provider's webhook), with the charge id only. */
  notifyMerchant: (chargeId: string) => Promise<void>;
  /** How long after the bank's answer the provider's webhook leaves (providers are never instant). */
  webhookDelayMs?: number;
}

/** The provider's API as the merchant's server and the provider's hosted bank page use it. */
export interface PretendProvider {
  /** Charges once per idempotency key: a repeat with the same key answers the first charge. */
  createCharge(request: {
    idempotencyKey: string;
    amount: Money;
    paymentMethod: TestPaymentMethod;
    reference: string;
  }): Charge;
  getCharge(id: string): Charge | undefined;
  /** The traveller's answer on the bank's page (3-D Secure); the merchant learns it by webhook. */
  answerChallenge(id: string, approved: boolean): Charge | undefined;
  /** Voids a charge that has not settled; a settled one stays as it is. */
  cancelCharge(id: string): Charge | undefined;
  /** Refunds a succeeded charge once, however often it is asked. */
  refund(chargeId: string, reason: string): Refund | undefined;
  charges(): readonly Charge[];
  refunds(): readonly Refund[];
}

/** A provider with an empty ledger. */
export function createPretendProvider(options: PretendProviderOptions): PretendProvider {
  const byKey = new Map<string, Charge>();
  const byId = new Map<string, Charge>();
  const refundsByCharge = new Map<string, Refund>();
  const now = () => new Date().toISOString();

  function settle(charge: Charge, status: Charge['status']): void {
    charge.status = status;
    charge.settledAt = now();
    const timer = setTimeout(() => {
      options.notifyMerchant(charge.id).catch(() => {
        // A real provider retries its webhooks; the merchant can also read the charge at any time.
      });
    }, options.webhookDelayMs ?? 1_000);
    timer.unref?.();
  }

  return {
    createCharge(request) {
      const earlier = byKey.get(request.idempotencyKey);
      if (earlier !== undefined) {
        const same =
          earlier.amount.amountMinor === request.amount.amountMinor &&
          earlier.amount.currency === request.amount.currency &&
          earlier.paymentMethod === request.paymentMethod;
        if (!same) throw new IdempotencyMismatchError(request.idempotencyKey);
        return earlier;
      }
      const charge: Charge = {
        id: `demo-payment-${crypto.randomUUID()}`,
        idempotencyKey: request.idempotencyKey,
        amount: { ...request.amount },
        paymentMethod: request.paymentMethod,
        status:
          request.paymentMethod === TEST_PAYMENT_METHODS.visa
            ? 'succeeded'
            : request.paymentMethod === TEST_PAYMENT_METHODS.declined
              ? 'failed'
              : 'requires_action',
        reference: request.reference,
        createdAt: now(),
        settledAt: null,
      };
      if (charge.status !== 'requires_action') charge.settledAt = charge.createdAt;
      byKey.set(request.idempotencyKey, charge);
      byId.set(charge.id, charge);
      return charge;
    },
    getCharge: (id) => byId.get(id),
    answerChallenge(id, approved) {
      const charge = byId.get(id);
      if (charge?.status === 'requires_action') settle(charge, approved ? 'succeeded' : 'failed');
      return charge;
    },
    cancelCharge(id) {
      const charge = byId.get(id);
      if (charge?.status === 'requires_action') {
        charge.status = 'cancelled';
        charge.settledAt = now();
      }
      return charge;
    },
    refund(chargeId, reason) {
      const charge = byId.get(chargeId);
      if (charge?.status !== 'succeeded') return undefined;
      const earlier = refundsByCharge.get(chargeId);
      if (earlier !== undefined) return earlier;
      const refund: Refund = {
        id: `demo-refund-${crypto.randomUUID()}`,
        chargeId,
        reference: charge.reference,
        amount: { ...charge.amount },
        reason,
        createdAt: now(),
      };
      refundsByCharge.set(chargeId, refund);
      return refund;
    },
    charges: () => [...byId.values()],
    refunds: () => [...refundsByCharge.values()],
  };
}
