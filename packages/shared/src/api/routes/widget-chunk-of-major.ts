/**
 * @module
 * `GET /v{major}/widget-chunks/{file}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'widgetChunkOfMajor';
export const method = 'GET';
export const path = '/v{major}/widget-chunks/{file}';
export const summary =
  'A lazily loaded part of the widget of one major version (content-hashed, cached for a year).';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
