/**
 * @module
 * Which web pages may embed a widget. Allowed origins from the config are normalised (scheme, lower-case
 * host, default port dropped); a request's `Origin` must be in that canonical form (the one browsers send)
 * and equal one of them exactly, or match an explicit subdomain pattern (`https://*.acme.com`) anchored at a
 * label boundary. Anything odd — `null`, missing, userinfo, a path, a trailing dot, upper case, another
 * scheme or port — is refused. A pattern over a public suffix (`*.vercel.app`, `*.co.uk`) is refused at load.
 */
import { getDomain } from 'tldts';

/** An allowed origin from the config, ready to match. */
export type OriginPattern =
  | { kind: 'exact'; origin: string }
  | { kind: 'subdomain'; scheme: 'http:' | 'https:'; suffix: string; port: string };

/** Visible ASCII without a backslash: a browser serialises origins this way (IDNs as punycode). */
const VISIBLE_ASCII = /^[\x21-\x5b\x5d-\x7e]+$/;
const ORIGIN_SHAPE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)$/i;

/**
 * The normalised form of an `Origin` header (`https://shop.example`, `http://localhost:8787`), or null
 * when it is missing, `null`, or not a plain http(s) origin.
 *
 * @example
 * normalizeOrigin('HTTPS://Shop.Example:443'); // 'https://shop.example'
 * normalizeOrigin('https://shop.example.');    // null (trailing dot)
 */
export function normalizeOrigin(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '' || raw.length > 512 || !VISIBLE_ASCII.test(raw))
    return null;
  const shape = ORIGIN_SHAPE.exec(raw);
  if (shape === null) return null;
  const scheme = shape[1]?.toLowerCase();
  const authority = shape[2] ?? '';
  if (scheme !== 'http' && scheme !== 'https') return null;
  if (authority.includes('@') || authority.includes('*')) return null;
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}`);
  } catch {
    return null;
  }
  const hostname = url.hostname;
  if (hostname === '' || hostname.endsWith('.') || hostname.startsWith('.') || hostname.includes('..')) {
    return null;
  }
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    return null;
  }
  return `${url.protocol}//${url.host}`;
}

/**
 * Parse an allowed-origin entry of the config. `problem` says in words what is wrong with it.
 *
 * @example
 * parseOriginPattern('https://*.acme.com'); // { pattern: { kind: 'subdomain', suffix: 'acme.com', … } }
 */
export function parseOriginPattern(value: string): { pattern?: OriginPattern; problem?: string } {
  const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(value);
  if (wildcard !== null) {
    const scheme = wildcard[1]?.toLowerCase() ?? '';
    const rest = wildcard[2] ?? '';
    const normalized = normalizeOrigin(`${scheme}://x.${rest}`);
    if (normalized === null) return { problem: `"${value}" is not a valid subdomain pattern` };
    const url = new URL(normalized);
    const suffix = url.hostname.slice(2);
    if (!suffix.includes('.')) {
      return {
        problem: `"${value}" matches every subdomain of a top-level domain; name the site’s own domain`,
      };
    }
    if (isPublicSuffix(suffix)) {
      return {
        problem:
          `"${value}": ${suffix} is a public suffix (Public Suffix List), so its subdomains belong to anyone ` +
          'who signs up there; list the site’s own origins instead',
      };
    }
    return {
      pattern: { kind: 'subdomain', scheme: url.protocol as 'http:' | 'https:', suffix, port: url.port },
    };
  }
  if (value.includes('*')) {
    return { problem: `"${value}": a wildcard is only allowed as the first label ("https://*.example.com")` };
  }
  const normalized = normalizeOrigin(value);
  if (normalized === null) {
    return {
      problem: `"${value}" is not an origin: scheme://host[:port], http or https, no path, no user, no trailing dot`,
    };
  }
  return { pattern: { kind: 'exact', origin: normalized } };
}

/**
 * True when names under `suffix` are registered by different people: `suffix` is on the Public Suffix List, in
 * its ICANN section (`co.uk`) or its private one (`github.io`, `vercel.app`), or lies under a wildcard rule.
 */
function isPublicSuffix(suffix: string): boolean {
  const site = getDomain(`x.${suffix}`, { allowPrivateDomains: true, validateHostname: false });
  return site === null || site === `x.${suffix}`;
}

/** True when the normalised `origin` is allowed by `pattern`. */
export function originMatches(origin: string, pattern: OriginPattern): boolean {
  if (pattern.kind === 'exact') return origin === pattern.origin;
  const url = new URL(origin);
  if (url.protocol !== pattern.scheme || url.port !== pattern.port) return false;
  const host = url.hostname;
  // Anchored at a label boundary: "x.acme.com" matches, "evilacme.com" and "acme.com.evil.io" do not,
  // and neither does the bare "acme.com" (list it on its own if it embeds the widget too).
  return host.length > pattern.suffix.length + 1 && host.endsWith(`.${pattern.suffix}`);
}

/** An origin policy: the compiled allowed origins of one widget (or of all widgets, for CORS). */
export interface OriginPolicy {
  /** The normalised origin when the raw `Origin` header is allowed, else null. */
  allow(raw: string | null | undefined): string | null;
}

/** How many origins' answers an origin policy keeps (see `allow`). */
const DECISIONS_KEPT = 1_000;

/** Compile a list of allowed origins from the config (already validated by the config schema). */
export function createOriginPolicy(allowedOrigins: readonly string[]): OriginPolicy {
  const patterns = allowedOrigins.map((value) => {
    const { pattern, problem } = parseOriginPattern(value);
    if (pattern === undefined) throw new Error(`invalid allowed origin: ${problem}`);
    return pattern;
  });
  const decide = (raw: string | null | undefined) => {
    const origin = normalizeOrigin(raw);
    // Browsers always send the canonical form; a header in any other form (upper case, `:443`) was
    // written by hand and is refused rather than guessed at.
    if (origin === null || origin !== raw) return null;
    return patterns.some((pattern) => originMatches(origin, pattern)) ? origin : null;
  };
  // Every widget call is checked twice (CORS, then the session's origin) and parsing an origin is a URL
  // parse: the answers for the origins last seen are kept. The header is the client's, so the memory is
  // bounded and simply starts over when full.
  const decided = new Map<string, string | null>();
  return {
    allow(raw) {
      if (raw === undefined || raw === null) return null;
      const known = decided.get(raw);
      if (known !== undefined) return known;
      const answer = decide(raw);
      if (decided.size >= DECISIONS_KEPT) decided.clear();
      decided.set(raw, answer);
      return answer;
    },
  };
}
