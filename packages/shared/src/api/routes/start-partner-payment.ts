/**
 * @module
 * `POST /v1/partner/checkouts/{id}/payment-started`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'startPartnerPayment';
export const method = 'POST';
export const path = '/v1/partner/checkouts/{id}/payment-started';
export const summary =
  'The partner is about to charge: fund the order now and hold it firmly until the confirm (402/422 before any charge when the account cannot; safe to retry).';
export const auth = 'partner';
export const status = 200;
export const response = PartnerCheckoutResponseSchema;
