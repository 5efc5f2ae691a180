/**
 * @module
 * The BFF's one error type. Thrown anywhere, turned into the contract's error envelope by the app's
 * single error handler; unknown errors become `internal` with the request id and no stack trace.
 */
import {
  type ApiErrorCode,
  type BffErrorCode,
  EnvelopeError,
  type EnvelopeErrorOptions,
  ERROR_STATUS_BY_CODE,
  type ErrorHttpStatus,
  IDEMPOTENCY_KEY_HEADER,
} from '@esim-embed/shared';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The statuses of the codes the BFF adds to the contract's (the contract's own come from the shared table). */
const BFF_STATUS_BY_CODE: Readonly<Record<BffErrorCode, ErrorHttpStatus>> = {
  checkout_not_found: 404,
  destination_not_found: 404,
  upstream_unavailable: 503,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  store_unavailable: 503,
  upstream_refused: 422,
  widget_misconfigured: 503,
  erased: 410,
};

/** Every code's HTTP status. Clients branch on the code, never on this. */
const STATUS_BY_CODE: Readonly<Record<ApiErrorCode, ErrorHttpStatus>> = {
  ...ERROR_STATUS_BY_CODE,
  ...BFF_STATUS_BY_CODE,
};

/**
 * Codes also answered with another status than their own: a body, header or cursor that cannot be read is
 * `validation_failed` 400, a key sent again with another request `idempotency_conflict` 422
 * ({@link idempotencyConflict}), an upstream answer that cannot be read `internal` 502.
 */
const OTHER_STATUSES: Partial<Record<ApiErrorCode, readonly ErrorHttpStatus[]>> = {
  validation_failed: [400],
  idempotency_conflict: [422],
  internal: [502],
};

/** The HTTP status for an error code. */
export function statusForCode(code: ApiErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code];
}

/** Every HTTP status an error code may come with, its own first (what the API's description lists). */
export function statusesForCode(code: ApiErrorCode): ErrorHttpStatus[] {
  return [STATUS_BY_CODE[code], ...(OTHER_STATUSES[code] ?? [])];
}

/** Options of an {@link ApiError}. */
export type ApiErrorOptions = EnvelopeErrorOptions<ContentfulStatusCode>;

/** An error that leaves the BFF as `{ error: { code, params }, meta }`: the shared error type, with the BFF's codes. */
export class ApiError extends EnvelopeError<ApiErrorCode, ContentfulStatusCode> {
  constructor(code: ApiErrorCode, options: ApiErrorOptions = {}) {
    super(code, statusForCode(code), options);
    this.name = 'ApiError';
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
