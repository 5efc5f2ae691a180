/**
 * @module
 * `GET /v1/checkouts/{id}/installation`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { InstallationResponseSchema } from '../checkout';

export const id = 'readInstallation';
export const method = 'GET';
export const path = '/v1/checkouts/{id}/installation';
export const summary = 'Installation data (QR payload, LPA, activation code, install links). Never cached.';
export const auth = 'session+secret';
export const status = 200;
export const response = InstallationResponseSchema;
export const errors = ['esim_not_found', 'invalid_transition', 'upstream_unavailable'] as const;
/** Asks the upstream as it answers: the upstream's refusals come through (`UPSTREAM_RELAYED_CODES`). */
export const relaysUpstream = true;
