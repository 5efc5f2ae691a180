/**
 * @module
 * `GET /v1/destinations`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { DestinationsQuerySchema, DestinationsResponseSchema } from '../catalog';

export const id = 'listDestinations';
export const method = 'GET';
export const path = '/v1/destinations';
export const summary =
  'Destinations (countries and regions) with localized names and retail from-prices (ETag).';
export const auth = 'session';
export const query = DestinationsQuerySchema;
export const status = 200;
export const response = DestinationsResponseSchema;
export const errors = ['widget_misconfigured', 'upstream_unavailable'] as const;
