/**
 * @module
 * `GET /v1/catalog/{widgetId}/{version}/{locale}/plans/{code}`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PlansResponseSchema } from '../catalog';

export const id = 'publicPlans';
export const method = 'GET';
export const path = '/v1/catalog/{widgetId}/{version}/{locale}/plans/{code}';
export const summary = 'The plans of one destination in one catalog version (public, immutable).';
export const auth = 'public';
export const status = 200;
export const response = PlansResponseSchema;
export const errors = ['destination_not_found', 'storefront_app_disabled', 'upstream_unavailable'] as const;
