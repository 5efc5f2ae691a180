/**
 * @module
 * Reading and validating requests with the shared reader (`@esim-embed/shared` `readJsonText`): JSON bodies
 * (415 for another content type, 400 for malformed JSON) and zod validation of bodies and queries into
 * `validation_failed` naming the fields the one way the BFF names them too (`params.location`, `params.field`,
 * `params.issues: [{ field, code, message }]`).
 */
import {
  MALFORMED_JSON_PARAMS,
  type RequestLocation,
  readJsonText,
  validationFailureParams,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

/** Parses `value` with `schema` or throws `validation_failed` naming every bad field. */
export function validate<T extends z.ZodType>(
  schema: T,
  value: unknown,
  location: RequestLocation,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SandboxError('validation_failed', {
    params: { ...validationFailureParams(result.error, location) },
  });
}

/** Reads a JSON body; an empty body reads as `{}` (every field then goes through validation). */
export async function readJsonBody(c: Context<SandboxEnv>): Promise<unknown> {
  const contentType = c.req.header('Content-Type');
  const read = readJsonText(await c.req.text(), contentType);
  if (read.ok) return read.value;
  if (read.reason === 'unsupported_media_type') {
    // The contract has no code of its own for this: a validation failure with the 415 status.
    throw new SandboxError('validation_failed', {
      status: 415,
      params: {
        reason: 'unsupported_media_type',
        contentType: contentType ?? '',
        expected: 'application/json',
      },
    });
  }
  throw new SandboxError('validation_failed', { status: 400, params: { ...MALFORMED_JSON_PARAMS } });
}
