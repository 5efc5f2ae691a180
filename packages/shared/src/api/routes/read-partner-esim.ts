/**
 * @module
 * `GET /v1/partner/esims/{esimId}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { EsimViewResponseSchema } from '../after-sale';

export const id = 'readPartnerEsim';
export const method = 'GET';
export const path = '/v1/partner/esims/{esimId}';
export const summary = 'An eSIM as its traveller sees it (no installation data).';
export const auth = 'partner';
export const status = 200;
export const response = EsimViewResponseSchema;
export const errors = ['esim_not_found', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
