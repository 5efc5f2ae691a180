/**
 * @module
 * The one error the widget's API client throws: the BFF's error code and params, plus two codes of the
 * widget's own for a request that never got an answer (`network_error`) or got one it cannot read
 * (`invalid_response`).
 */
import type { ApiErrorCode } from '@esim-embed/shared';

/** Every code the widget can show a message for. */
export type WidgetErrorCode = ApiErrorCode | 'network_error' | 'invalid_response';

/** A failed request to the BFF. */
export class WidgetApiError extends Error {
  override readonly name = 'WidgetApiError';

  constructor(
    readonly code: WidgetErrorCode,
    readonly params: Record<string, unknown> = {},
    readonly requestId: string | null = null,
    options?: ErrorOptions,
  ) {
    super(`The eSIM store answered ${code}${requestId ? ` (request ${requestId})` : ''}`, options);
  }
}

/** The error's code when it is a `WidgetApiError`; `invalid_response` for anything else. */
export function errorCodeOf(error: unknown): WidgetErrorCode {
  return error instanceof WidgetApiError ? error.code : 'invalid_response';
}
