/**
 * @module
 * `Vary`, merged and never overwritten: each part of the way out names what the answer depends on (CORS the
 * `Origin`, compression the `Accept-Encoding`, the widget's start `Sec-Fetch-Site`), and a cache must be told
 * all of them — one dropped token is a cache handing one origin's or one coding's answer to another.
 */

/**
 * The `Vary` value `existing` with each of `tokens` (a name, or a list of them) added once: header names
 * compare without case, the first spelling stays. `*` already varies on everything and stays as it is.
 *
 * @example
 * varyWith('Origin', 'Origin, Sec-Fetch-Site', 'accept-encoding'); // 'Origin, Sec-Fetch-Site, accept-encoding'
 */
export function varyWith(existing: string | undefined, ...tokens: string[]): string {
  const merged: string[] = [];
  const seen = new Set<string>();
  for (const token of [existing ?? '', ...tokens].join(',').split(',')) {
    const name = token.trim();
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    merged.push(name);
  }
  return seen.has('*') ? '*' : merged.join(', ');
}

/**
 * `base` with `added` written over it, header by header, except `Vary`, whose tokens are merged
 * ({@link varyWith}). The BFF writes the name `Vary` in that one spelling everywhere.
 */
export function withHeaders(
  base: Readonly<Record<string, string>>,
  added: Readonly<Record<string, string>>,
): Record<string, string> {
  const vary = added.Vary;
  if (vary === undefined || base.Vary === undefined) return { ...base, ...added };
  return { ...base, ...added, Vary: varyWith(base.Vary, vary) };
}
