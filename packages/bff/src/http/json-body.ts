/**
 * @module
 * Reading a request body with the shared reader (`@esim-embed/shared` `readJsonText`): JSON only
 * (`unsupported_media_type` otherwise), malformed JSON and schema mismatches as `validation_failed` with the
 * fields named the one way the sandbox names them too. An empty body reads as `{}`, so that bodiless creates
 * (`confirm`, `cancel`) need no content type.
 */
import {
  MALFORMED_JSON_PARAMS,
  type RequestLocation,
  readJsonText,
  validationFailureParams,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../errors';

/** Parse `value` with `schema` or throw `validation_failed` naming the fields. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  status: 400 | 422 = 422,
  location: RequestLocation = 'body',
): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError('validation_failed', {
      status,
      params: { ...validationFailureParams(parsed.error, location) },
    });
  }
  return parsed.data;
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
  const read = readJsonText(await bodyText(c), c.req.header('content-type'));
  if (read.ok) return parseOrThrow(schema, read.value);
  if (read.reason === 'unsupported_media_type') {
    throw new ApiError('unsupported_media_type', { params: { expected: 'application/json' } });
  }
  throw new ApiError('validation_failed', { status: 400, params: { ...MALFORMED_JSON_PARAMS } });
}
