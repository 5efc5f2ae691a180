/**
 * @module
 * A refusal of the console API as the page sees it: the contract's error envelope's `code` and `params` with the
 * answer's status, or `network` when no answer came.
 */

/** An error answer of the console API. */
export class ConsoleApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly params: Record<string, unknown>;

  constructor(code: string, status: number, params: Record<string, unknown> = {}) {
    super(`console API: ${code} (${status})`);
    this.name = 'ConsoleApiError';
    this.code = code;
    this.status = status;
    this.params = params;
  }
}

/** Reads an error answer's envelope (`{ error: { code, params } }`); a body of another shape keeps the status. */
export async function errorFromAnswer(answer: Response): Promise<ConsoleApiError> {
  const body: unknown = await answer.json().catch(() => undefined);
  const error = (body as { error?: { code?: unknown; params?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${answer.status}`;
  const params =
    error?.params && typeof error.params === 'object' ? (error.params as Record<string, unknown>) : {};
  return new ConsoleApiError(code, answer.status, params);
}
