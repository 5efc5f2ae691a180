/**
 * @module
 * What the BFF's operations routes answer: liveness (`/healthz`) and readiness (`/readyz`). Not `{ data, meta }`:
 * load balancers and orchestrators read them, and they read only the status.
 */
import { z } from 'zod';

/** `GET /healthz`: the process is up. */
export const HealthResponseSchema = z.strictObject({ status: z.literal('ok') });

/**
 * `GET /readyz`: `ready` (200) or `not_ready` (503, the same body); with the operations token, each check by name
 * (`store`, `widget:<id>`) and its result (`ok`, or why not).
 */
export const ReadinessResponseSchema = z.strictObject({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.string()).optional(),
});
