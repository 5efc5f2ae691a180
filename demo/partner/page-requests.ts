/**
 * @module
 * Which browser requests the partner server takes: JSON only, and only from its own page's origin. A form or a
 * `text/plain` fetch from another site needs no CORS preflight, so without these checks any page a traveller
 * visits could make their browser post a checkout id here (cross-site request forgery). A browser cannot send
 * `application/json` across sites without a preflight this server never answers, and it names the page it
 * comes from in `Origin` and `Sec-Fetch-Site`.
 *
 * This is the demo's minimum, not a partner's whole defence: see "What a real partner server adds" in
 * docs/payments.md (your own user's session, CSRF tokens, the checkout tied to that session).
 */
import type { Context, MiddlewareHandler } from 'hono';

const refuse = (c: Context, status: 403 | 415, code: string, params: Record<string, string> = {}) =>
  c.json({ error: { code, params } }, status);

/** True when the request's body is declared JSON (`application/json`, any parameters). */
function declaresJson(contentType: string | undefined): boolean {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** Refuses any body that is not declared JSON (`415 unsupported_media_type`). */
export function jsonOnly(): MiddlewareHandler {
  return async function requireJson(c, next) {
    if (!declaresJson(c.req.header('Content-Type'))) {
      return refuse(c, 415, 'unsupported_media_type', { expected: 'application/json' });
    }
    await next();
  };
}

/**
 * Refuses what did not come from one of `pageOrigins` (exact `scheme://host:port`, as browsers send `Origin`):
 * a browser request from another site (`Sec-Fetch-Site` other than `same-origin`), and any request whose
 * `Origin` is missing or not listed (`403 origin_forbidden`). Also JSON only.
 */
export function fromOwnPage(pageOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(pageOrigins.map((origin) => new URL(origin).origin));
  const json = jsonOnly();
  return async function requireOwnPage(c, next) {
    const site = c.req.header('Sec-Fetch-Site');
    if (site !== undefined && site !== 'same-origin') {
      return refuse(c, 403, 'origin_forbidden', { reason: 'cross_site' });
    }
    const origin = c.req.header('Origin');
    if (origin === undefined || !allowed.has(origin))
      return refuse(c, 403, 'origin_forbidden', { reason: 'origin' });
    return await json(c, next);
  };
}
