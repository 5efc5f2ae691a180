/**
 * @module
 * `POST /v1/checkouts/{id}/cancel`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CheckoutResponseSchema } from '../checkout';

export const id = 'cancelCheckout';
export const method = 'POST';
export const path = '/v1/checkouts/{id}/cancel';
export const summary =
  'The traveller abandons the payment: cancel a checkout that awaits payment (again: the same answer).';
export const auth = 'session+secret';
export const status = 200;
export const response = CheckoutResponseSchema;
export const errors = ['invalid_transition'] as const;
