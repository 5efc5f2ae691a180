/**
 * @module
 * `GET /v1/my-esim`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { EsimViewQuerySchema, EsimViewResponseSchema } from '../after-sale';

export const id = 'readMyEsim';
export const method = 'GET';
export const path = '/v1/my-esim';
export const summary =
  'My eSIM (X-Manage-Token): plan, usage, dates, installed, top-up status and offers, actions.';
export const auth = 'session+manage';
export const query = EsimViewQuerySchema;
export const status = 200;
export const response = EsimViewResponseSchema;
export const errors = ['esim_not_found', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
