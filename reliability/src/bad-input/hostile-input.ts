/**
 * @module
 * fast-check arbitraries for what a hostile or broken client sends: JSON of any shape (oversized, deeply
 * nested), bytes that are not UTF-8, unicode tricks (bidi overrides, zero-width joiners, lone surrogates,
 * NUL, full-width look-alikes), odd content types, queries, path segments and header values.
 */
import fc from 'fast-check';

/** Strings that trip up parsers and comparisons. */
export const UNICODE_TRICKS = [
  '\u202eevil\u202c',
  'shop\u200b',
  '\ufeff{}',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  'ｓｈｏｐ',
  'ѕһор',
  'e\u0301',
  '𝕤𝕙𝕠𝕡',
  '\u2028\u2029',
  '%00',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '\u0024{7*7}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '9'.repeat(400),
  '-0',
  '1e309',
];

const trickyString = fc.oneof(
  fc.constantFrom(...UNICODE_TRICKS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

/** Any JSON value, with tricky strings and keys (`__proto__`, `constructor`) mixed in. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    trickyString,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(trickyString, fc.constantFrom('__proto__', 'constructor', 'offerId', 'widgetId')),
      tie('value'),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

/**
 * Values at and just past the contract's limits: counts (`maxViews` 1–5, `expiresInMinutes` 5–1440), integers
 * past 2^31 and 2^53, fractions, negative zero, strings of the lengths where ids and references stop (64, 128,
 * 255, 1000, 254 for an email) and one past.
 */
export const limitValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1, 4, 5, 6, 1440, 1441, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1.5, -0, 1e308, 5e-324),
  fc.constantFrom(63, 64, 65, 127, 128, 129, 254, 255, 256, 1000, 1001).map((length) => 'a'.repeat(length)),
  fc.constantFrom('5', ' 1', '1e1', '0x5', 'true', '', ' ', `${'a'.repeat(243)}@example.com`),
);

/** A body shaped like the endpoint's own request, each field replaced by something else or left alone. */
export function nearMiss(template: Record<string, unknown>): fc.Arbitrary<unknown> {
  const entries = Object.entries(template);
  return fc
    .tuple(
      ...entries.map(([, value]) =>
        fc.oneof(fc.constant(value), anyJson, limitValue, fc.constant(undefined)),
      ),
    )
    .chain((values) =>
      fc
        .record({ extra: fc.option(fc.tuple(trickyString, anyJson), { nil: undefined }) })
        .map(({ extra }) => {
          const body: Record<string, unknown> = {};
          entries.forEach(([key], index) => {
            if (values[index] !== undefined) body[key] = values[index];
          });
          if (extra !== undefined) body[extra[0]] = extra[1];
          return body;
        }),
    );
}

/** The template as JSON with `__proto__` and `constructor.prototype` keys first (prototype pollution). */
export function withPollutionKeys(template: Record<string, unknown>): string {
  const fields = JSON.stringify(template).slice(1, -1);
  const pollution = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';
  return `{${pollution}${fields === '' ? '' : `,${fields}`}}`;
}

/** JSON nested `depth` levels deep (arrays or objects). */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A request body as bytes: JSON, near misses, malformed, invalid UTF-8, oversized, deeply nested or empty. */
export function hostileBody(
  template: Record<string, unknown>,
  limitBytes: number,
): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    nearMiss(template).map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
    anyJson.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom(
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]),
      Buffer.from('{"offerId":"\\ud800"}'),
      Buffer.from('{"a":1,"a":2}'),
      Buffer.from(withPollutionKeys(template)),
      Buffer.from('{'),
      Buffer.from('nul'),
    ),
    fc
      .constantFrom(50_000, 5_000, 200)
      .map((depth) => Buffer.from(deeplyNested(depth, depth % 2 === 0 ? 'array' : 'object'))),
    fc
      .constantFrom(limitBytes + 1, limitBytes * 4, 2_000_000)
      .map((size) => Buffer.from(JSON.stringify({ ...template, pad: 'x'.repeat(size) }))),
    fc.constant(undefined),
    fc.constant(Buffer.alloc(0)),
  );
}

/** Content types: JSON ones (with odd parameters and case), other types, garbage and none. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/vnd.api+json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
    'application/xml',
    'application/json, text/plain',
    ';',
    'application/',
    '*/*',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map(headerSafe),
  fc.constant(undefined),
);

/** Replace the bytes HTTP itself forbids in a header value (CR, LF, NUL and other controls) with `?`. */
export function headerSafe(value: string): string {
  let safe = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    safe += (code < 0x20 && code !== 0x09) || code === 0x7f ? '?' : char;
  }
  return safe.trim();
}

/**
 * A header value as latin1 bytes (0x20–0xff, so invalid UTF-8 too), tricky strings encoded as UTF-8 bytes, and
 * (with `long`) 8 KB values, so that two of them pass Node's 16 KB header limit.
 */
export function headerValueOf(options: { long: boolean }): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .constantFrom(...UNICODE_TRICKS)
      .map((value) => headerSafe(Buffer.from(value, 'utf8').toString('latin1'))),
    fc.uint8Array({ maxLength: 48 }).map((bytes) => headerSafe(Buffer.from(bytes).toString('latin1'))),
    fc.string({ maxLength: 40 }).map(headerSafe),
    fc.constant('x'.repeat(options.long ? 8_000 : 2_000)),
  );
}

/** Header values for the BFF, up to 8 KB. */
export const headerValue = headerValueOf({ long: true });

/** A path segment, percent-encoded from arbitrary bytes (invalid UTF-8, `/`, NUL, dots) or a trick. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 24 })
    .map((bytes) =>
      [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
    ),
  fc.constantFrom(...UNICODE_TRICKS, '.', '..', '%2e%2e', '%', '%zz', 'a'.repeat(3_000)).map(encodePathTrick),
  fc.string({ minLength: 1, maxLength: 20 }).map((value) => encodeURIComponent(value)),
);

function encodePathTrick(value: string): string {
  if (value === '.' || value === '..' || /^%/.test(value)) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send its replacement bytes.
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A query string (without `?`): known names with odd values, unknown names, repeats, raw bytes. */
export function hostileQuery(names: readonly string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...names, 'admin', '__proto__', 'locale[]'), pathSegment),
    fc.oneof(pathSegment, fc.constant('')),
  );
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
}
