/**
 * @module
 * `POST /v1/partner/checkouts/{id}/decline`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { DeclineCheckoutPaymentRequestSchema, PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'declinePartnerCheckoutPayment';
export const method = 'POST';
export const path = '/v1/partner/checkouts/{id}/decline';
export const summary =
  'A payment attempt was declined (nothing taken): the checkout keeps awaiting payment and the widget asks for another card (safe to retry).';
export const auth = 'partner';
export const body = DeclineCheckoutPaymentRequestSchema;
export const status = 200;
export const response = PartnerCheckoutResponseSchema;
export const errors = ['checkout_not_found', 'invalid_transition'] as const;
