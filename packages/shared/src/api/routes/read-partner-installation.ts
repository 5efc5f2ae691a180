/**
 * @module
 * `GET /v1/partner/checkouts/{id}/installation`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { InstallationResponseSchema } from '../checkout';

export const id = 'readPartnerInstallation';
export const method = 'GET';
export const path = '/v1/partner/checkouts/{id}/installation';
export const summary =
  'Installation data of a ready checkout’s eSIM (not yet installed), for the partner to send the traveller. Never cached.';
export const auth = 'partner';
export const status = 200;
export const response = InstallationResponseSchema;
export const errors = [
  'checkout_not_found',
  'esim_not_found',
  'invalid_transition',
  'upstream_unavailable',
] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
