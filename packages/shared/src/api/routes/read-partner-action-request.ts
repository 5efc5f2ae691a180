/**
 * @module
 * `GET /v1/partner/action-requests/{id}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerActionRequestResponseSchema } from '../after-sale';

export const id = 'readPartnerActionRequest';
export const method = 'GET';
export const path = '/v1/partner/action-requests/{id}';
export const summary =
  'A help request’s status: requested, in_review, completed or rejected (a completed reissue names the replacement eSIM).';
export const auth = 'partner';
export const status = 200;
export const response = PartnerActionRequestResponseSchema;
export const errors = ['action_request_not_found'] as const;
