/**
 * @module
 * `GET /v1/partner/checkouts`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerCheckoutListQuerySchema, PartnerCheckoutListResponseSchema } from '../support-desk';

export const id = 'listPartnerCheckouts';
export const method = 'GET';
export const path = '/v1/partner/checkouts';
export const summary =
  'The partner’s checkouts, newest first, searched by status, createdFrom/createdTo, traveller email (exact, any case), esimId and paymentReference; ?limit= (25, at most 100) and the answer’s nextCursor as ?cursor=.';
export const auth = 'partner';
export const query = PartnerCheckoutListQuerySchema;
export const status = 200;
export const response = PartnerCheckoutListResponseSchema;
