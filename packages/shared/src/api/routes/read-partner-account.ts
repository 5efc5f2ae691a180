/**
 * @module
 * `GET /v1/partner/account`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerAccountQuerySchema, PartnerAccountResponseSchema } from '../partner-account';

export const id = 'readPartnerAccount';
export const method = 'GET';
export const path = '/v1/partner/account';
export const summary =
  'The partner’s money: balance, what open checkouts hold, what new ones may still spend, limits (?widgetId= when the secret opens several widgets).';
export const auth = 'partner';
export const query = PartnerAccountQuerySchema;
export const status = 200;
export const response = PartnerAccountResponseSchema;
export const errors = ['storefront_app_not_found', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
