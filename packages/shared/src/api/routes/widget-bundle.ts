/**
 * @module
 * `GET /widget.js`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
export const id = 'widgetBundle';
export const method = 'GET';
export const path = '/widget.js';
export const summary =
  'The latest widget: `<script type="module" src=".../widget.js">` defines `<esim-widget>` (cached 5 minutes).';
export const auth = 'public';
export const status = 200;
export const contentType = 'text/javascript';
