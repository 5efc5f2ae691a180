/**
 * @module
 * `GET /v1/partner/privacy/erasures/{id}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PrivacyErasureResponseSchema } from '../privacy-erasure';

export const id = 'readPartnerPrivacyErasure';
export const method = 'GET';
export const path = '/v1/partner/privacy/erasures/{id}';
export const summary =
  'The receipt of one erasure the partner asked for: pending or completed, what was found and erased, when; another partner’s is not_found.';
export const auth = 'partner';
export const status = 200;
export const response = PrivacyErasureResponseSchema;
