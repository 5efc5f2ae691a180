/**
 * @module
 * The sandbox's one error type: thrown anywhere, turned into the contract's error envelope by the app's
 * single error handler. Statuses come from the shared contract table (`@esim-embed/shared` `ERROR_STATUS_BY_CODE`);
 * clients branch on the code only.
 */
import { EnvelopeError, type EnvelopeErrorOptions, type ErrorCode, errorStatusOf } from '@esim-embed/shared';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Options of a {@link SandboxError}. */
export type SandboxErrorOptions = EnvelopeErrorOptions<ContentfulStatusCode>;

/** An error that leaves the sandbox as `{ error: { code, params }, meta }`: the shared error type, contract codes only. */
export class SandboxError extends EnvelopeError<ErrorCode, ContentfulStatusCode> {
  constructor(code: ErrorCode, options: SandboxErrorOptions = {}) {
    super(code, errorStatusOf(code), options);
    this.name = 'SandboxError';
  }
}
