/**
 * @module
 * `GET /v1/my-esim/installation`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { EsimInstallationViewResponseSchema } from '../after-sale';

export const id = 'readMyInstallation';
export const method = 'GET';
export const path = '/v1/my-esim/installation';
export const summary =
  'Installation data again while the eSIM is not installed (X-Manage-Token). Never cached.';
export const auth = 'session+manage';
export const status = 200;
export const response = EsimInstallationViewResponseSchema;
export const errors = ['esim_not_found', 'invalid_transition', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
