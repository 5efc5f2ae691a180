/**
 * @module
 * `POST /v1/partner/esims/{esimId}/manage-links/revoke-all`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { RevokedManageLinksResponseSchema } from '../after-sale';

export const id = 'revokeAllManageLinks';
export const method = 'POST';
export const path = '/v1/partner/esims/{esimId}/manage-links/revoke-all';
export const summary =
  'Revoke every manage link of an eSIM the partner sold, in every widget; a later mint makes a new one.';
export const auth = 'partner';
export const status = 200;
export const response = RevokedManageLinksResponseSchema;
export const errors = ['esim_not_found'] as const;
