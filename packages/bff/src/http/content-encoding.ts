/**
 * @module
 * Choosing an answer's content coding from the request's `Accept-Encoding` (RFC 9110 §12.5.3): the client's
 * q-values first, the server's order of preference among equals, `identity` acceptable unless refused.
 */

/** The codings the BFF sends: brotli, gzip, or the bytes as they are. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** The codings the BFF can make, best first: brotli is smaller, gzip is understood by every client. */
export const COMPRESSED_ENCODINGS = ['br', 'gzip'] as const satisfies readonly ContentEncoding[];

/** What a client's `Accept-Encoding` says of each coding: its q-value, or undefined when it names none. */
type Weights = Map<string, number>;

/** The codings named in an `Accept-Encoding` header and their q-values (1 when none is given). */
function weightsOf(header: string): Weights {
  const weights: Weights = new Map();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const q = Number(value.trim());
      // A malformed q-value makes the entry unreadable: it neither offers nor refuses its coding.
      weight = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value.trim()) ? q : Number.NaN;
    }
    if (Number.isNaN(weight)) continue;
    // `x-gzip` is gzip's old name (RFC 9110 §8.4.1.3).
    weights.set(coding === 'x-gzip' ? 'gzip' : coding, weight);
  }
  return weights;
}

/**
 * How much the client wants `coding`: its own q-value, else the `*` entry's; `identity` is acceptable when
 * neither names it, yet after any coding the client asked for (a tiny weight).
 */
function weightOf(weights: Weights, coding: ContentEncoding): number {
  const named = weights.get(coding);
  if (named !== undefined) return named;
  const wildcard = weights.get('*');
  if (wildcard !== undefined) return wildcard;
  return coding === 'identity' ? Number.MIN_VALUE : 0;
}

/**
 * The coding, among `offered` (the server's order of preference), that the request's `Accept-Encoding`
 * wants most, or undefined when it accepts none of them. No header means no coding but `identity`.
 *
 * @example
 * chooseEncoding('gzip, deflate, br', ['br', 'gzip', 'identity']); // 'br'
 * chooseEncoding('br;q=0.5, gzip', ['br', 'gzip', 'identity']); // 'gzip'
 * chooseEncoding('identity;q=0', ['identity']); // undefined
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  offered: readonly ContentEncoding[],
): ContentEncoding | undefined {
  if (acceptEncoding === undefined) return offered.includes('identity') ? 'identity' : undefined;
  const weights = weightsOf(acceptEncoding);
  let best: ContentEncoding | undefined;
  let bestWeight = 0;
  for (const coding of offered) {
    const weight = weightOf(weights, coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
