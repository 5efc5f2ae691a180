/**
 * @module
 * `GET /healthz`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { HealthResponseSchema } from '../operations';

export const id = 'health';
export const method = 'GET';
export const path = '/healthz';
export const summary = 'The process is up.';
export const auth = 'public';
export const status = 200;
export const response = HealthResponseSchema;
