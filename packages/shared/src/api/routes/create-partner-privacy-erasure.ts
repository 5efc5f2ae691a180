/**
 * @module
 * `POST /v1/partner/privacy/erasures`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PrivacyErasureResponseSchema, PrivacySubjectSchema } from '../privacy-erasure';

export const id = 'createPartnerPrivacyErasure';
export const method = 'POST';
export const path = '/v1/partner/privacy/erasures';
export const summary =
  'Erase one traveller’s personal data (by e-mail, checkout or eSIM) from every record of the partner’s widgets: queued, answered 202 with its receipt pending; read it by id, privacy.erased tells when it is done.';
export const auth = 'partner';
export const idempotent = true;
export const body = PrivacySubjectSchema;
export const status = 202;
export const response = PrivacyErasureResponseSchema;
export const errors = ['checkout_not_found', 'esim_not_found'] as const;
