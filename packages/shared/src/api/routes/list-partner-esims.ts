/**
 * @module
 * `GET /v1/partner/esims`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerEsimListQuerySchema, PartnerEsimListResponseSchema } from '../support-desk';

export const id = 'listPartnerEsims';
export const method = 'GET';
export const path = '/v1/partner/esims';
export const summary =
  'The eSIMs the partner’s widgets sold, newest first, with the selling checkout while it is kept; ?limit= and ?cursor= as every list.';
export const auth = 'partner';
export const query = PartnerEsimListQuerySchema;
export const status = 200;
export const response = PartnerEsimListResponseSchema;
