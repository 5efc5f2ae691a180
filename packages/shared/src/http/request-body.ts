/**
 * @module
 * Reading a request, the same in the sandbox and the BFF: a body is JSON (or empty, read as `{}`), and a
 * `validation_failed` names the failing field the one way — `params.location`, `params.field` (the first bad
 * field, as the contract names the `Idempotency-Key` header in `idempotency_conflict`) and
 * `params.issues: [{ field, code, message }]`. Pure: each server reads the text and throws its own error.
 */
import type { z } from 'zod';

/** Where in a request a bad field is. */
export type RequestLocation = 'body' | 'query' | 'header';

/** One field-level problem of a request. */
export interface FieldIssue {
  /** Dotted path of the field (`recipient.email`), or the header's name; empty for the whole body. */
  field: string;
  code: string;
  message: string;
}

/** `params` of a `validation_failed` that names fields. */
export interface ValidationFailureParams {
  location: RequestLocation;
  /** The first bad field (`''` for the whole body). */
  field: string;
  issues: FieldIssue[];
}

/** At most this many issues are listed: enough to fix a form, bounded for a hostile body. */
const MAX_ISSUES = 20;

/** `params` naming the given problems (never the values sent). */
export function fieldFailureParams(location: RequestLocation, issues: FieldIssue[]): ValidationFailureParams {
  const listed = issues.slice(0, MAX_ISSUES);
  return { location, field: listed[0]?.field ?? '', issues: listed };
}

/** The zod issues of a failed parse as `validation_failed` params: paths and codes, never the values. */
export function validationFailureParams(
  error: z.ZodError,
  location: RequestLocation,
): ValidationFailureParams {
  return fieldFailureParams(
    location,
    error.issues.map((issue) => ({
      field: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
    })),
  );
}

/** `params` of a body that is not JSON at all (answered with 400). */
export const MALFORMED_JSON_PARAMS = { location: 'body', field: '', reason: 'malformed_json' } as const;

/** True for `application/json` and `application/<something>+json`, with any parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** A body's text read as JSON, or why not. */
export type JsonBodyRead =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'unsupported_media_type' | 'malformed_json' };

/**
 * A body's text as JSON. An empty body reads as `{}`, so that bodiless creates need no content type and every
 * field then goes through validation; a non-empty one must be declared JSON and parse.
 */
export function readJsonText(text: string, contentType: string | undefined): JsonBodyRead {
  if (text.trim() === '') return { ok: true, value: {} };
  if (!isJsonMediaType(contentType)) return { ok: false, reason: 'unsupported_media_type' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'malformed_json' };
  }
}
