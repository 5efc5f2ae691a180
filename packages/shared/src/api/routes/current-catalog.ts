/**
 * @module
 * `GET /v1/catalog/{widgetId}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PublicCatalogResponseSchema } from '../catalog';

export const id = 'currentCatalog';
export const method = 'GET';
export const path = '/v1/catalog/{widgetId}';
export const summary =
  'The name and address of the widget’s current public catalog (public; cached a few seconds).';
export const auth = 'public';
export const status = 200;
export const response = PublicCatalogResponseSchema;
export const errors = [
  'storefront_app_not_found',
  'upstream_unavailable',
  'storefront_app_disabled',
] as const;
