/**
 * @module
 * Runs a create under its `Idempotency-Key`: the key is required, claimed per API key before any work,
 * and the first successful status and body are replayed for an identical request for 24 hours.
 */
import { fieldFailureParams, IdempotencyKeySchema } from '@esim-embed/shared';
import type { Context } from 'hono';
import type { SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

/** The header every create carries. */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Deeper than any request of the contract: a body nested further is refused before it is fingerprinted. */
const MAX_BODY_DEPTH = 64;

/** JSON with object keys sorted, so two bodies that differ only in key order or spacing match. */
function canonicalJson(value: unknown, depth = 0): string {
  // Recursing into an arbitrarily deep body would overflow the stack (a 500): refuse it as bad input.
  if (depth > MAX_BODY_DEPTH) {
    throw new SandboxError('validation_failed', {
      params: {
        ...fieldFailureParams('body', [
          { field: '', code: 'too_deep', message: `nested deeper than ${MAX_BODY_DEPTH} levels` },
        ]),
      },
    });
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a create handler returns. */
export interface CreatedResponse {
  status: 200 | 201;
  body: unknown;
}

/**
 * Claims the key, runs `create` (after any fault latency, so a slow create holds its key), stores a
 * success and answers it; a replay answers the stored response with `Idempotent-Replayed: true`.
 */
export async function idempotentCreate(
  c: Context<SandboxEnv>,
  nowMs: number,
  body: unknown,
  create: () => CreatedResponse | Promise<CreatedResponse>,
): Promise<Response> {
  const raw = c.req.header(IDEMPOTENCY_KEY);
  const parsed = IdempotencyKeySchema.safeParse(raw);
  if (!parsed.success) {
    throw new SandboxError('validation_failed', {
      params: {
        ...fieldFailureParams(
          'header',
          raw === undefined
            ? [
                {
                  field: IDEMPOTENCY_KEY,
                  code: 'required',
                  message: 'Idempotency-Key header is required on creates',
                },
              ]
            : parsed.error.issues.map((issue) => ({
                field: IDEMPOTENCY_KEY,
                code: issue.code,
                message: issue.message,
              })),
        ),
      },
    });
  }
  const auth = c.get('auth');
  const store = auth.env.idempotency;
  const key = `${auth.key.seed.id}:${parsed.data}`;
  const fingerprint = `${c.req.method} ${c.req.path} ${canonicalJson(body)}`;
  const claim = store.claim(key, fingerprint, nowMs);
  if (claim.kind === 'replay') {
    c.header('Idempotent-Replayed', 'true');
    return c.json(claim.response.body as object, claim.response.status as 200 | 201);
  }
  try {
    const latency = c.get('faultLatencyMs');
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency));
    const response = await create();
    store.complete(key, response);
    return c.json(response.body as object, response.status);
  } catch (error) {
    store.release(key);
    throw error;
  }
}
