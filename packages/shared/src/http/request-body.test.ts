import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isJsonMediaType, readJsonText, validationFailureParams } from './request-body';

describe('reading a request body', () => {
  it('reads an empty body as {} whatever its type, and JSON only when declared', () => {
    expect(readJsonText('  ', undefined)).toEqual({ ok: true, value: {} });
    expect(readJsonText('{"a":1}', 'application/json; charset=utf-8')).toEqual({ ok: true, value: { a: 1 } });
    expect(readJsonText('{"a":1}', 'text/plain')).toEqual({ ok: false, reason: 'unsupported_media_type' });
    expect(readJsonText('{"a":', 'application/json')).toEqual({ ok: false, reason: 'malformed_json' });
  });

  it('knows JSON media types', () => {
    expect(isJsonMediaType('application/problem+json')).toBe(true);
    expect(isJsonMediaType('application/json-seq')).toBe(false);
    expect(isJsonMediaType(undefined)).toBe(false);
  });

  it('names the failing fields the one way: location, first field, issues', () => {
    const parsed = z
      .strictObject({ recipient: z.object({ email: z.email() }) })
      .safeParse({ recipient: { email: 'x' } });
    if (parsed.success) throw new Error('expected a failure');
    expect(validationFailureParams(parsed.error, 'body')).toMatchObject({
      location: 'body',
      field: 'recipient.email',
      issues: [{ field: 'recipient.email' }],
    });
  });
});
