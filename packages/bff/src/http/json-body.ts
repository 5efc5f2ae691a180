/**
 * @module
 * Reading a request body: JSON only (`unsupported_media_type` otherwise), malformed JSON and schema
 * mismatches as `validation_failed` with the fields named. An empty body reads as `{}`, so that bodiless
 * creates (`confirm`, `cancel`) need no content type.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../errors';

/** The zod issues of a failed parse as safe, field-level params (paths and codes, never the values). */
export function validationParams(error: z.ZodError): Record<string, unknown> {
  const issues = error.issues.slice(0, 20).map((issue) => ({
    field: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
  return { field: issues[0]?.field ?? '', issues };
}

/** Parse `value` with `schema` or throw `validation_failed` naming the fields. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  status: 400 | 422 = 422,
): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ApiError('validation_failed', { status, params: validationParams(parsed.error) });
  return parsed.data;
}

/** True for `application/json` and `application/<something>+json`, with any parameters. */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** The raw body text (read once and cached by Hono, so the idempotency fingerprint and the handler agree). */
export async function bodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    throw new ApiError('validation_failed', { status: 400, params: { reason: 'unreadable_body' }, cause });
  }
}

/** The request body as JSON, checked by `schema`. */
export async function readJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await bodyText(c);
  if (text.trim() === '') return parseOrThrow(schema, {});
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new ApiError('unsupported_media_type', { params: { expected: 'application/json' } });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('validation_failed', { status: 400, params: { field: '', reason: 'malformed_json' } });
  }
  return parseOrThrow(schema, json);
}
