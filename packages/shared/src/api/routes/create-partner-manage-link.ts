/**
 * @module
 * `POST /v1/partner/esims/{esimId}/manage-links`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { CreateManageLinkRequestSchema, ManageLinkResponseSchema } from '../after-sale';

export const id = 'createPartnerManageLink';
export const method = 'POST';
export const path = '/v1/partner/esims/{esimId}/manage-links';
export const summary =
  'The manage link of an eSIM the partner sold, in one of its widgets (the same one while it is live).';
export const auth = 'partner';
export const body = CreateManageLinkRequestSchema;
export const status = 201;
export const response = ManageLinkResponseSchema;
export const errors = ['esim_not_found', 'storefront_app_not_found'] as const;
