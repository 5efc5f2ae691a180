/**
 * @module
 * `GET /widget@{version}/widget-chunks/{file}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'pinnedWidgetChunk';
export const method = 'GET';
export const path = '/widget@{version}/widget-chunks/{file}';
export const summary = 'A lazily loaded part of one version of the widget (immutable).';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
