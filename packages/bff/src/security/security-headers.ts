/**
 * @module
 * The security headers of every BFF answer: those of Hono's `secureHeaders()` defaults, with the resource
 * policy opened to the same site (the widget's API answers are read cross-origin through CORS) and no
 * referrer. Written once per answer with the route's own (see `http/answer.ts`); a route that sets one of
 * them itself (the widget bundle: `Cross-Origin-Resource-Policy: cross-origin`) keeps its own.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Resource-Policy': 'same-site',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
});
