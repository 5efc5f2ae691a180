/**
 * @module
 * `GET /widget@{version}/widget.js`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'pinnedWidget';
export const method = 'GET';
export const path = '/widget@{version}/widget.js';
export const summary =
  'One version of the widget, never changed (`immutable`, cached for a year): pin it with Subresource Integrity.';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
