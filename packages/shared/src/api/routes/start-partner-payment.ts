/**
 * @module
 * `POST /v1/partner/checkouts/{id}/payment-started`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'startPartnerPayment';
export const method = 'POST';
export const path = '/v1/partner/checkouts/{id}/payment-started';
export const summary =
  'The partner is about to charge (once per payment attempt): fund the order now and keep it for this payment until the confirm, a decline or the payment hold time (402/422 before any charge when the account cannot; 429 payments_in_progress over the payment caps of the address, session or account; 409 after 10 declined attempts; safe to retry).';
export const auth = 'partner';
export const status = 200;
export const response = PartnerCheckoutResponseSchema;
export const errors = [
  'checkout_not_found',
  'invalid_transition',
  'insufficient_balance',
  'monthly_limit_exceeded',
  'order_limit_exceeded',
  'account_not_active',
  'scope_missing',
  'upstream_unavailable',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
