/**
 * @module
 * `GET /v1/catalog/{widgetId}/{version}/{locale}/destinations`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { DestinationsResponseSchema } from '../catalog';

export const id = 'publicDestinations';
export const method = 'GET';
export const path = '/v1/catalog/{widgetId}/{version}/{locale}/destinations';
export const summary = 'The destinations of one catalog version (public, immutable: any cache may keep it).';
export const auth = 'public';
export const status = 200;
export const response = DestinationsResponseSchema;
export const errors = [
  'storefront_app_not_found',
  'storefront_app_disabled',
  'upstream_unavailable',
] as const;
