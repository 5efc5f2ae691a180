/**
 * @module
 * What a log line never shows, should a caller pass it all the same: pino's `redact` paths cover the fields the BFF
 * knows carry secrets, and a name-based safety net writes any field named for a secret, at any depth (in an
 * error's cause, in a header object), as `[redacted]`.
 */

/** Field names whose values are secrets or the product itself, compared without case, `-` or `_`. */
const SECRET_FIELD_NAMES = [
  'apiKey',
  'xApiKey',
  'authorization',
  'token',
  'sessionToken',
  'manageToken',
  'xManageToken',
  'clientSecret',
  'xCheckoutSecret',
  'partnerSecret',
  'xPartnerSecret',
  'webhookSecret',
  'sessionSecret',
  'operationsToken',
  'redisUrl',
  'smtpUrl',
  'secret',
  'password',
  'lpa',
  'activationCode',
  'qrPayload',
  'deliveryLinkUrl',
  'manageUrl',
  // The traveller's address: kept on the checkout alone, never in a log line.
  'email',
] as const;
const SECRET_FIELDS = new Set(SECRET_FIELD_NAMES.map((name) => name.toLowerCase()));

/**
 * pino's redaction paths: each secret-bearing field as the BFF would log it — a field of the line, and the
 * headers of a request or an answer (`request.headers.authorization`) in either spelling. Exact paths only:
 * pino's wildcard paths copy every line at a cost many times the line's own, while an exact path costs nothing
 * until its field is there. The safety net below covers other spellings and depths.
 */
const HEADER_NAMES = [
  'authorization',
  'x-api-key',
  'x-partner-secret',
  'x-checkout-secret',
  'x-manage-token',
];
const capitalized = (header: string) =>
  header.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELD_NAMES,
  ...['headers', 'request.headers', 'response.headers'].flatMap((parent) =>
    HEADER_NAMES.flatMap((header) => [`${parent}["${header}"]`, `${parent}["${capitalized(header)}"]`]),
  ),
];

/**
 * Field names seen so far and whether each names a secret: the names are the code's own (and header names), few
 * and repeated on every line, so each is normalized once. Bounded all the same.
 */
const knownNames = new Map<string, boolean>();
/** Whether a field named `name` holds a secret (compared without case, `-` or `_`). */
export function namesSecret(name: string): boolean {
  let secret = knownNames.get(name);
  if (secret === undefined) {
    secret = SECRET_FIELDS.has(name.replace(/[-_]/g, '').toLowerCase());
    if (knownNames.size < 2_000) knownNames.set(name, secret);
  }
  return secret;
}

/** How deep the safety net looks; deeper values are cut (a log line is not a dump). */
const MAX_DEPTH = 8;

/**
 * The safety net: `value` with every field named for a secret written as `[redacted]` at any depth, and errors
 * as name, message and cause chain — never a stack trace in a line that may be shipped. Objects with nothing to
 * change are returned as they are (no copy on the common path).
 */
export function scrubFields(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return '[too deep]';
  if (value instanceof Error) {
    return {
      name: value.name,
      message: value.message,
      cause: value.cause === undefined ? undefined : scrubFields(value.cause, depth + 1),
    };
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const next = scrubFields(value[index], depth + 1);
      if (next !== value[index]) {
        copy ??= [...value];
        copy[index] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    const next =
      field !== null && field !== undefined && namesSecret(key)
        ? '[redacted]'
        : scrubFields(field, depth + 1);
    if (next !== field) {
      copy ??= { ...record };
      copy[key] = next;
    }
  }
  return copy ?? value;
}
