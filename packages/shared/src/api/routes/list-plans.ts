/**
 * @module
 * `GET /v1/destinations/{code}/plans`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { DestinationsQuerySchema, PlansResponseSchema } from '../catalog';

export const id = 'listPlans';
export const method = 'GET';
export const path = '/v1/destinations/{code}/plans';
export const summary = 'The plans of one destination at retail prices (ETag).';
export const auth = 'session';
export const query = DestinationsQuerySchema;
export const status = 200;
export const response = PlansResponseSchema;
export const errors = ['destination_not_found', 'widget_misconfigured', 'upstream_unavailable'] as const;
