/**
 * @module
 * `GET /openapi.json`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'openApi';
export const method = 'GET';
export const path = '/openapi.json';
export const summary = 'This API as OpenAPI 3.1.';
export const auth = 'public';
export const status = 200;
