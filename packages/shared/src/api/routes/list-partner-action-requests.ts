/**
 * @module
 * `GET /v1/partner/action-requests`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { ActionRequestListQuerySchema, PartnerActionRequestListResponseSchema } from '../after-sale';

export const id = 'listPartnerActionRequests';
export const method = 'GET';
export const path = '/v1/partner/action-requests';
export const summary =
  'The help requests made through this BFF for the partner’s widget, newest first, as last read (?status=, ?esimId=; ?limit=, ?cursor=; ?widgetId= when the secret opens several).';
export const auth = 'partner';
export const query = ActionRequestListQuerySchema;
export const status = 200;
export const response = PartnerActionRequestListResponseSchema;
