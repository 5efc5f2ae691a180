/**
 * @module
 * The one error the widget's API client throws: the BFF's error code and params, plus two codes of the
 * widget's own for a request that never got an answer (`network_error`) or got one it cannot read
 * (`invalid_response`).
 */
import { ACCOUNT_UNREADABLE, type ApiErrorCode } from '@esim-embed/shared';

/** Every code the widget can show a message for. */
export type WidgetErrorCode = ApiErrorCode | 'network_error' | 'invalid_response';

/** Options of a `WidgetApiError`: its cause, and the answer's `Retry-After`. */
export interface WidgetApiErrorOptions extends ErrorOptions {
  retryAfterSeconds?: number | null;
}

/** A failed request to the BFF. */
export class WidgetApiError extends Error {
  override readonly name = 'WidgetApiError';
  /** How long the BFF asked to wait before the same request (its `Retry-After`), in seconds; null: it did not say. */
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly code: WidgetErrorCode,
    readonly params: Record<string, unknown> = {},
    readonly requestId: string | null = null,
    options: WidgetApiErrorOptions = {},
  ) {
    super(`The eSIM store answered ${code}${requestId ? ` (request ${requestId})` : ''}`, options);
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

/** The error's code when it is a `WidgetApiError`; `invalid_response` for anything else. */
export function errorCodeOf(error: unknown): WidgetErrorCode {
  return error instanceof WidgetApiError ? error.code : 'invalid_response';
}

/** Codes of failures that pass by themselves: a rate limit, the BFF or the upstream down a while. */
const PASSING: ReadonlySet<WidgetErrorCode> = new Set(['rate_limited', 'internal', 'upstream_unavailable']);

/** How soon an error is worth trying again by itself; `null`: not by itself. */
export type RetryWorth = 'moment' | 'connection' | 'passing' | null;

/**
 * The widget's one answer to "is this error worth trying again by itself, and when?" (the client's own
 * repeats, a checkout's status polling and the traveller's notice all ask it; none decides on its own):
 * - `moment`: the same request will work a moment later — the first request with this idempotency key is still
 *   running (its answer will be replayed), the BFF's store is briefly unavailable, or the BFF has not read the
 *   partner's account yet (it reads it again within seconds). Repeating it is safe:
 *   every create carries its idempotency key, and the rest are reads or idempotent by nature.
 * - `connection`: the request never got an answer; worth trying again once the device is back online.
 * - `passing`: a failure that passes by itself (see {@link PASSING}): worth trying again after a pause.
 * - `null`: not by itself; the traveller chooses the way forward (`errors/error-recovery.ts`).
 */
export function retryWorth(error: unknown): RetryWorth {
  if (!(error instanceof WidgetApiError)) return null;
  if (error.code === 'store_unavailable') return 'moment';
  if (error.code === 'idempotency_conflict' && error.params.reason === 'in_progress') return 'moment';
  // The partner's account not read yet (the BFF just started, the upstream slow): read again within seconds.
  if (error.code === 'upstream_unavailable' && error.params.cause === ACCOUNT_UNREADABLE) return 'moment';
  if (error.code === 'network_error') return 'connection';
  return PASSING.has(error.code) ? 'passing' : null;
}
