/**
 * @module
 * `POST /v1/partner/manage-links/{id}/revoke`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { RevokedManageLinkResponseSchema } from '../after-sale';

export const id = 'revokeManageLink';
export const method = 'POST';
export const path = '/v1/partner/manage-links/{id}/revoke';
export const summary =
  'Revoke a manage link of one of the partner’s widgets: it stops opening the eSIM at once.';
export const auth = 'partner';
export const status = 200;
export const response = RevokedManageLinkResponseSchema;
