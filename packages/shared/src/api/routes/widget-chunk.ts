/**
 * @module
 * `GET /widget-chunks/{file}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'widgetChunk';
export const method = 'GET';
export const path = '/widget-chunks/{file}';
export const summary = 'A lazily loaded part of the latest widget (content-hashed name, cached for a year).';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
