/**
 * @module
 * The one error handler: every failure leaves the BFF in the contract's envelope
 * `{ error: { code, params }, meta: { requestId, apiVersion } }`. Unknown errors become `internal`, logged
 * once with their cause; no stack trace or message of an unexpected error leaves the server. A store outage is
 * `store_unavailable` (503 with `Retry-After`), never `internal`.
 */
import { API_VERSION, type ApiErrorEnvelope } from '@esim-embed/shared';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { StoreUnavailableError } from '../store/store';
import { AnswerShapeError, answerJson } from './answer';
import type { AppEnv, HeaderRecord } from './app-env';

/** The envelope response for an {@link ApiError}. */
export function errorResponse(
  c: Context<AppEnv>,
  error: ApiError,
  extraHeaders: HeaderRecord = {},
): Response {
  const body: ApiErrorEnvelope = {
    error: { code: error.code, params: error.params },
    meta: { requestId: c.get('requestId') ?? 'unknown', apiVersion: API_VERSION },
  };
  const headers: HeaderRecord = { ...extraHeaders, 'Cache-Control': 'no-store' };
  if (error.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(Math.ceil(error.retryAfterSeconds));
  return answerJson(c, body, error.status, headers);
}

/**
 * How long a client waits before retrying while the store is away: the Redis connection retries at least every
 * second, so the store is back within about that much of Redis's return.
 */
const STORE_RETRY_AFTER_SECONDS = 2;

/** The store outage behind `error`, when there is one in its cause chain (an `internal` wrapping it included). */
function storeOutage(error: unknown, depth = 0): StoreUnavailableError | null {
  if (error instanceof StoreUnavailableError) return error;
  if (!(error instanceof Error) || depth >= 3) return null;
  return storeOutage(error.cause, depth + 1);
}

/** Hono's `HTTPException`s (thrown by its middleware) as the BFF's codes. */
function fromHttpException(exception: HTTPException): ApiError {
  switch (exception.status) {
    case 413:
      return new ApiError('payload_too_large');
    case 415:
      return new ApiError('unsupported_media_type');
    case 404:
      return new ApiError('not_found');
    case 405:
      return new ApiError('method_not_allowed');
    case 401:
      return new ApiError('widget_session_invalid');
    default:
      return exception.status < 500
        ? new ApiError('validation_failed', { status: 400, params: { reason: 'bad_request' } })
        : new ApiError('internal', { cause: exception });
  }
}

/** `app.onError`: the envelope for everything thrown. */
export function createErrorHandler(logger: Logger): ErrorHandler<AppEnv> {
  // Requests whose store outage is already logged: a middleware that cleans up after the failed handler meets
  // the same outage again, and one refusal is one log line.
  const outageLogged = new WeakSet<Request>();
  return function handleError(error, c) {
    let apiError: ApiError;
    const outage = error instanceof ApiError && error.code !== 'internal' ? null : storeOutage(error);
    if (outage !== null) {
      apiError = new ApiError('store_unavailable', {
        retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
        cause: outage,
      });
    } else if (error instanceof ApiError) {
      apiError = error;
    } else if (error instanceof HTTPException) {
      apiError = fromHttpException(error);
    } else {
      apiError = new ApiError('internal', { cause: error });
    }
    if (outage !== null) {
      // The outage itself is logged (once) by the store at `error`; here only which request it refused.
      if (!outageLogged.has(c.req.raw)) {
        outageLogged.add(c.req.raw);
        logger.warn('request refused: store unavailable', {
          requestId: c.get('requestId'),
          code: apiError.code,
        });
      }
    } else if (apiError.status >= 500) {
      logger.error('request failed', {
        requestId: c.get('requestId'),
        code: apiError.code,
        cause: apiError.cause instanceof Error ? describe(apiError.cause) : undefined,
        upstreamRequestId: (apiError as { upstreamRequestId?: unknown }).upstreamRequestId ?? undefined,
      });
    }
    try {
      return errorResponse(c, apiError);
    } catch (shape) {
      // Outside production: the error is not one the route lists (`http/answer.ts`). Said loudly, answered as
      // `internal` (every route may answer it), never as a crash of the error handler.
      if (!(shape instanceof AnswerShapeError)) throw shape;
      logger.error('request failed', {
        requestId: c.get('requestId'),
        code: 'internal',
        cause: describe(shape),
      });
      return errorResponse(c, new ApiError('internal'));
    }
  };
}

/** `app.notFound`: `not_found`, or `method_not_allowed` with `Allow` when the path exists with other methods. */
export function createNotFoundHandler(allowedMethods: (path: string) => string[]): NotFoundHandler<AppEnv> {
  return function handleNotFound(c) {
    const methods = allowedMethods(c.req.path);
    if (methods.length > 0) {
      return errorResponse(c, new ApiError('method_not_allowed', { params: { allow: methods } }), {
        Allow: methods.join(', '),
      });
    }
    return errorResponse(c, new ApiError('not_found'));
  };
}

/** An error as name, message and cause chain names — enough to debug, never a stack or a request body. */
function describe(error: Error, depth = 0): Record<string, unknown> {
  return {
    name: error.name,
    message: error.message,
    cause: error.cause instanceof Error && depth < 3 ? describe(error.cause, depth + 1) : undefined,
  };
}
