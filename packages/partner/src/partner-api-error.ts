/**
 * @module
 * The one error the client throws: the BFF's error envelope (`{ error: { code, params }, meta: { requestId } }`)
 * with the HTTP status, or a request that got no answer (`network_error`, `timeout`) or an answer that is not
 * the API's (`invalid_response`). Branch on `code`, never on the status or the message.
 */
import type { ApiErrorCode } from '@esim-embed/shared';

/** A code of the BFF's error envelope, or one of the client's own when no envelope came back. */
export type PartnerApiErrorCode =
  | ApiErrorCode
  /** The request got no answer (refused connection, DNS, reset): safe to send again for reads and confirms. */
  | 'network_error'
  /** No answer within the client's `timeoutMs`. */
  | 'timeout'
  /** An answer that is neither the route's success body nor the error envelope (a proxy's page, a wrong URL). */
  | 'invalid_response';

/** What the error carries. */
export interface PartnerApiErrorDetails {
  code: PartnerApiErrorCode;
  /** The HTTP status; 0 when no answer came. */
  status: number;
  /** The envelope's `params`: safe, structured context (field, status, limits). */
  params?: Record<string, unknown>;
  /** The BFF's `meta.requestId`: quote it to whoever runs the BFF. Null when no envelope came back. */
  requestId?: string | null;
  /** Seconds to wait before a retry (`Retry-After`, on `rate_limited`). */
  retryAfterSeconds?: number | null;
  cause?: unknown;
}

/**
 * A refused or failed call to the partner API.
 *
 * @example
 * try { await esim.checkouts.confirm(id) } catch (error) {
 *   if (error instanceof PartnerApiError && error.code === 'invalid_transition') await refund();
 * }
 */
export class PartnerApiError extends Error {
  readonly code: PartnerApiErrorCode;
  readonly status: number;
  readonly params: Record<string, unknown>;
  readonly requestId: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(details: PartnerApiErrorDetails) {
    const where = details.requestId ? ` (request ${details.requestId})` : '';
    super(`eSIM Embed partner API: ${details.code}, status ${details.status}${where}`, {
      cause: details.cause,
    });
    this.name = 'PartnerApiError';
    this.code = details.code;
    this.status = details.status;
    this.params = details.params ?? {};
    this.requestId = details.requestId ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
  }
}
