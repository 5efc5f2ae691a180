/**
 * @module
 * `POST /v1/checkouts`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateCheckoutRequestSchema, CreatedCheckoutResponseSchema } from '../checkout';

export const id = 'createCheckout';
export const method = 'POST';
export const path = '/v1/checkouts';
export const summary =
  'Check a quote out: direct places the order, partner_confirm waits for the partner’s confirm.';
export const auth = 'session';
export const idempotent = true;
export const acceptsManageToken = true;
export const body = CreateCheckoutRequestSchema;
export const status = 201;
export const response = CreatedCheckoutResponseSchema;
export const errors = [
  'quote_not_found',
  'quote_expired',
  'quote_consumed',
  'price_changed',
  'order_limit_exceeded',
  'insufficient_balance',
  'monthly_limit_exceeded',
  'account_not_active',
  'action_not_available',
  'upstream_unavailable',
  // A top-up's manage token of a traveller erased at the partner's request.
  'erased',
  'upstream_refused',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
