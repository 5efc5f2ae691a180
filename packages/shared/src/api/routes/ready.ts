/**
 * @module
 * `GET /readyz`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { ReadinessResponseSchema } from '../operations';

export const id = 'ready';
export const method = 'GET';
export const path = '/readyz';
export const summary =
  'Every widget’s upstream is reachable with a valid key, and the store answers: the status for anyone, the checks with the operations token.';
export const auth = 'public';
export const status = 200;
export const response = ReadinessResponseSchema;
/** Not ready is an answer of its own, not a failure: the same body with 503. */
export const alsoAnswers = [503] as const;
