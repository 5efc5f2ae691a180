/**
 * @module
 * `POST /v1/partner/privacy/exports`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PrivacySubjectSchema } from '../privacy-erasure';
import { PrivacyExportResponseSchema } from '../privacy-export';

export const id = 'exportPartnerPrivacyData';
export const method = 'POST';
export const path = '/v1/partner/privacy/exports';
export const summary =
  'Every datum the BFF holds about one traveller (by e-mail, checkout or eSIM) in the partner’s widgets: checkouts, eSIMs, webhook deliveries, help requests (GDPR art. 15). A POST so that the address stays out of URLs and logs.';
export const auth = 'partner';
export const body = PrivacySubjectSchema;
export const status = 200;
export const response = PrivacyExportResponseSchema;
export const errors = ['checkout_not_found', 'esim_not_found'] as const;
