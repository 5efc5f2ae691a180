/**
 * @module
 * `GET /healthz`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'health';
export const method = 'GET';
export const path = '/healthz';
export const summary = 'The process is up.';
export const auth = 'public';
export const status = 200;
