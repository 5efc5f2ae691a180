/**
 * @module
 * The sandbox's one error type: thrown anywhere, turned into the contract's error envelope by the app's
 * single error handler. The status table is the one docs/upstream-contract.md assumes; clients branch on the code only.
 */
import type { ErrorCode } from '@esim-embed/shared';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The HTTP status each code answers with, where it is not 400. */
const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  unauthorized: 401,
  forbidden: 403,
  scope_missing: 403,
  enterprise_auth_required: 403,
  account_not_active: 403,
  product_not_found: 404,
  offer_not_found: 404,
  quote_not_found: 404,
  order_not_found: 404,
  recipient_not_found: 404,
  esim_not_found: 404,
  delivery_link_invalid: 404,
  action_request_not_found: 404,
  account_not_found: 404,
  idempotency_conflict: 409,
  price_changed: 409,
  quote_consumed: 409,
  recipient_conflict: 409,
  action_request_exists: 409,
  invalid_transition: 409,
  product_unavailable: 409,
  quote_expired: 410,
  cursor_expired: 410,
  validation_failed: 422,
  order_limit_exceeded: 422,
  monthly_limit_exceeded: 422,
  action_not_available: 422,
  insufficient_balance: 402,
  rate_limited: 429,
  internal: 500,
};

/** The HTTP status for an error code (400 where no other fits, e.g. `cursor_invalid`). */
export function statusForCode(code: ErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code] ?? 400;
}

/** Options of a {@link SandboxError}. */
export interface SandboxErrorOptions {
  /** Safe, structured context for recovery or field-level handling. Never secrets. */
  params?: Record<string, unknown>;
  /** Overrides the status derived from the code (e.g. 409 vs 422 idempotency conflicts, 413, 415). */
  status?: ContentfulStatusCode;
  /** Seconds after which a retry may succeed; sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** The underlying failure, logged once, never sent. */
  cause?: unknown;
}

/** An error that leaves the sandbox as `{ error: { code, params }, meta }`. */
export class SandboxError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, unknown>;
  readonly status: ContentfulStatusCode;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: SandboxErrorOptions = {}) {
    super(code, { cause: options.cause });
    this.name = 'SandboxError';
    this.code = code;
    this.params = options.params ?? {};
    this.status = options.status ?? statusForCode(code);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
