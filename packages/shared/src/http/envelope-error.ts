/**
 * @module
 * The one error type behind the sandbox's `SandboxError` and the BFF's `ApiError`: thrown anywhere, turned into
 * the contract's envelope `{ error: { code, params }, meta }` by each server's single error handler. Each server
 * names its own subclass only for the codes it may send and the status each code answers with.
 */

/** Options of an {@link EnvelopeError}. */
export interface EnvelopeErrorOptions<Status extends number = number> {
  /** Safe, structured context for the client (field names, limits, retry hints). Never secrets. */
  params?: Record<string, unknown>;
  /** Overrides the status the code answers with (e.g. 409 vs 422 idempotency conflicts, 413, 415). */
  status?: Status;
  /** Seconds after which a retry may succeed; sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** The underlying failure, logged once, never sent. */
  cause?: unknown;
}

/** An error that leaves a server as the contract's error envelope with `code`, `params` and `status`. */
export class EnvelopeError<Code extends string, Status extends number = number> extends Error {
  readonly code: Code;
  readonly params: Record<string, unknown>;
  readonly status: Status;
  readonly retryAfterSeconds: number | undefined;

  /** `status` is the code's own, used unless `options.status` overrides it. */
  constructor(code: Code, status: Status, options: EnvelopeErrorOptions<Status> = {}) {
    super(code, { cause: options.cause });
    this.name = 'EnvelopeError';
    this.code = code;
    this.params = options.params ?? {};
    this.status = options.status ?? status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
