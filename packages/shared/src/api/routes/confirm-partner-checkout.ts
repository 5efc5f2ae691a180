/**
 * @module
 * `POST /v1/partner/checkouts/{id}/confirm`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { ConfirmCheckoutRequestSchema, PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'confirmPartnerCheckout';
export const method = 'POST';
export const path = '/v1/partner/checkouts/{id}/confirm';
export const summary = 'The partner took the payment: place the order (safe to retry).';
export const auth = 'partner';
export const body = ConfirmCheckoutRequestSchema;
export const bodyOptional = true;
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
  'idempotency_conflict',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
