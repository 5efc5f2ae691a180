/**
 * @module
 * `GET /widget@{version}/integrity.json`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { WidgetIntegritySchema } from '../widget-integrity';

export const id = 'pinnedWidgetIntegrity';
export const method = 'GET';
export const path = '/widget@{version}/integrity.json';
export const summary =
  'The Subresource Integrity (`sha384-…`) of one version’s `widget.js` and of each of its chunks.';
export const auth = 'public';
export const status = 200;
export const response = WidgetIntegritySchema;
