/**
 * @module
 * Reading and validating requests: JSON bodies (415 for another content type, 400 for malformed JSON) and
 * zod validation of bodies and queries into `validation_failed` with field-level `params.issues`.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

/** One field-level problem of a request. */
export interface ValidationIssue {
  /** Dotted path of the field (`recipient.email`), empty for the whole body. */
  path: string;
  code: string;
  message: string;
}

/** Turns zod issues into the sandbox's `params.issues`. */
export function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
}

/** Parses `value` with `schema` or throws `validation_failed` naming every bad field. */
export function validate<T extends z.ZodType>(
  schema: T,
  value: unknown,
  location: 'body' | 'query' | 'header',
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SandboxError('validation_failed', { params: { location, issues: issuesOf(result.error) } });
}

/** Reads a JSON body; an empty body reads as `{}` (every field then goes through validation). */
export async function readJsonBody(c: Context<SandboxEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  const contentType = c.req.header('Content-Type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new SandboxError('validation_failed', {
      status: 415,
      params: { reason: 'unsupported_media_type', contentType, expected: 'application/json' },
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new SandboxError('validation_failed', {
      status: 400,
      params: { reason: 'malformed_json', location: 'body' },
      cause,
    });
  }
}
