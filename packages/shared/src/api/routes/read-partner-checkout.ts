/**
 * @module
 * `GET /v1/partner/checkouts/{id}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerCheckoutResponseSchema } from '../checkout';

export const id = 'readPartnerCheckout';
export const method = 'GET';
export const path = '/v1/partner/checkouts/{id}';
export const summary = 'The partner server’s view of a checkout (amount, status, upstream order).';
export const auth = 'partner';
export const status = 200;
export const response = PartnerCheckoutResponseSchema;
export const errors = ['checkout_not_found'] as const;
