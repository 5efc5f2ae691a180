/**
 * @module
 * `GET /v{major}/widget.js`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'widgetOfMajor';
export const method = 'GET';
export const path = '/v{major}/widget.js';
export const summary =
  'The latest widget of one major version (`/v1/widget.js`): compatible updates, cached 5 minutes.';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
