/**
 * @module
 * `GET /v1/brand/{widgetId}/logo/{hash}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'accountLogo';
export const method = 'GET';
export const path = '/v1/brand/{widgetId}/logo/{hash}';
export const summary =
  'The upstream account’s logo (PNG, JPEG or GIF), served from the BFF so that a page’s CSP needs no upstream host (public, immutable).';
export const auth = 'public';
export const status = 200;
export const contentType = 'image/*';
