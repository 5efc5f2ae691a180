/**
 * @module
 * The one error handler and the 404 handler: every failure leaves as the contract's error envelope with the
 * request id. Unknown errors become `internal` 500, logged once with their cause; no stack trace leaves.
 */
import { API_VERSION, type ErrorEnvelope } from '@esim-embed/shared';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

function envelope(c: Context<SandboxEnv>, error: SandboxError) {
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  c.header('Cache-Control', 'no-store');
  const body: ErrorEnvelope = {
    error: { code: error.code, params: error.params },
    meta: { requestId: c.get('requestId') ?? 'req_unknown', apiVersion: API_VERSION },
  };
  return c.json(body, error.status);
}

/** Turns whatever was thrown into the error envelope. */
export const handleSandboxError: ErrorHandler<SandboxEnv> = function handleSandboxError(error, c) {
  if (error instanceof SandboxError) return envelope(c, error);
  if (error instanceof HTTPException && error.status < 500) {
    // Hono's own 4xx (e.g. a body that could not be read) as a validation failure.
    return envelope(
      c,
      new SandboxError('validation_failed', {
        status: error.status as ContentfulStatusCode,
        params: { reason: 'bad_request' },
        cause: error,
      }),
    );
  }
  // Logged once, server side only: the client gets the request id, never the stack.
  console.error(
    JSON.stringify({ level: 'error', msg: 'unhandled error', requestId: c.get('requestId') }),
    error,
  );
  return envelope(c, new SandboxError('internal', { params: {}, cause: error }));
};

/** Unknown routes: a 404 envelope (the contract has no route code, so `validation_failed` with a reason). */
export const routeNotFound: NotFoundHandler<SandboxEnv> = function routeNotFound(c) {
  return envelope(
    c,
    new SandboxError('validation_failed', {
      status: 404,
      params: { reason: 'route_not_found', method: c.req.method, path: c.req.path },
    }),
  );
};
