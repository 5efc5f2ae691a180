/**
 * @module
 * `GET /v1/checkouts/{id}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CheckoutResponseSchema } from '../checkout';

export const id = 'readCheckout';
export const method = 'GET';
export const path = '/v1/checkouts/{id}';
export const summary = 'The checkout’s status, mirrored from the upstream order.';
export const auth = 'session+secret';
export const status = 200;
export const response = CheckoutResponseSchema;
