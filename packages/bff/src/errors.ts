/**
 * @module
 * The BFF's one error type. Thrown anywhere, turned into the contract's error envelope by the app's
 * single error handler; unknown errors become `internal` with the request id and no stack trace.
 */
import { type ApiErrorCode, IDEMPOTENCY_KEY_HEADER } from '@esim-embed/shared';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The HTTP status each code answers with, where it is not 400. Clients branch on the code, never on this. */
const STATUS_BY_CODE: Partial<Record<ApiErrorCode, ContentfulStatusCode>> = {
  unauthorized: 401,
  widget_session_invalid: 401,
  forbidden: 403,
  scope_missing: 403,
  widget_origin_forbidden: 403,
  storefront_app_disabled: 403,
  enterprise_auth_required: 403,
  storefront_app_not_found: 404,
  not_found: 404,
  checkout_not_found: 404,
  destination_not_found: 404,
  offer_not_found: 404,
  quote_not_found: 404,
  order_not_found: 404,
  esim_not_found: 404,
  action_request_not_found: 404,
  action_not_available: 409,
  action_request_exists: 409,
  product_not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  invalid_transition: 409,
  quote_consumed: 409,
  price_changed: 409,
  quote_expired: 410,
  cursor_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  insufficient_balance: 402,
  order_limit_exceeded: 422,
  monthly_limit_exceeded: 422,
  rate_limited: 429,
  internal: 500,
  upstream_unavailable: 503,
  store_unavailable: 503,
  upstream_refused: 422,
  widget_misconfigured: 503,
};

/** The HTTP status for an error code (400 where no other fits). */
export function statusForCode(code: ApiErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code] ?? 400;
}

export interface ApiErrorOptions {
  /** Safe, structured context for the client (field names, limits, retry hints). Never secrets. */
  params?: Record<string, unknown>;
  /** Override the status derived from the code (e.g. 422 vs 409 idempotency conflicts). */
  status?: ContentfulStatusCode;
  /** Seconds after which a retry may succeed; sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** The underlying failure, logged once, never sent. */
  cause?: unknown;
}

/** An error that leaves the BFF as `{ error: { code, params }, meta }`. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly params: Record<string, unknown>;
  readonly status: ContentfulStatusCode;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ApiErrorCode, options: ApiErrorOptions = {}) {
    super(code, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.params = options.params ?? {};
    this.status = options.status ?? statusForCode(code);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * `idempotency_conflict` as the contract words it: `params.field` names the `Idempotency-Key` header, `reason`
 * says whether the same request is still running (`in_progress`, 409: repeat it later) or the key came with
 * another request (`different_request`, 422: a new key is needed).
 */
export function idempotencyConflict(
  reason: 'different_request' | 'in_progress',
  retryAfterSeconds?: number,
): ApiError {
  return new ApiError('idempotency_conflict', {
    status: reason === 'different_request' ? 422 : 409,
    params: { field: IDEMPOTENCY_KEY_HEADER, reason },
    retryAfterSeconds,
  });
}
