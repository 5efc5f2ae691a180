/**
 * @module
 * The sandbox's one error type: thrown anywhere, turned into the contract's error envelope by the app's
 * single error handler. Statuses come from the shared contract table (`@esim-embed/shared` `ERROR_STATUS_BY_CODE`);
 * clients branch on the code only.
 */
import { type ErrorCode, errorStatusOf } from '@esim-embed/shared';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

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
    this.status = options.status ?? errorStatusOf(code);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
