/**
 * @module
 * `POST /v1/partner/checkouts/{id}/cancel`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'cancelPartnerCheckout';
export const method = 'POST';
export const path = '/v1/partner/checkouts/{id}/cancel';
export const summary = 'The payment failed or was abandoned: cancel a checkout that awaits payment.';
export const auth = 'partner';
export const status = 200;
export const response = PartnerCheckoutResponseSchema;
export const errors = ['checkout_not_found', 'invalid_transition', 'idempotency_conflict'] as const;
