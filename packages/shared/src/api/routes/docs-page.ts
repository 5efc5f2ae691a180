/**
 * @module
 * `GET /docs`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'docsPage';
export const method = 'GET';
export const path = '/docs';
export const summary = 'The API reference page.';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/html';
