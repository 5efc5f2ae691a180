/**
 * @module
 * `POST /v1/partner/delivery-links/{id}/revoke`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { RevokedDeliveryLinkResponseSchema } from '../after-sale';

export const id = 'revokePartnerDeliveryLink';
export const method = 'POST';
export const path = '/v1/partner/delivery-links/{id}/revoke';
export const summary = 'Revoke a delivery link: it stops opening at once (again: the first revocation).';
export const auth = 'partner';
export const status = 200;
export const response = RevokedDeliveryLinkResponseSchema;
export const errors = ['delivery_link_invalid'] as const;
