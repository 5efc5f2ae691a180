/**
 * @module
 * CORS for the widget API: only an allowed origin, echoed exactly (never `*`), always with `Vary: Origin`;
 * preflights answered here. Which widget an origin may use is checked later, against the session.
 *
 * One exception, so that a page on a foreign website can tell its traveller why the store does not open: the
 * widget's start (`GET /v1/widgets/{widgetId}/start`) and `POST /v1/sessions` let any well-formed origin read
 * their *refusals* (the session's preflight is answered, and an error answer carries that origin). A refusal holds
 * nothing but its error code, no credentials are ever involved, and a start or a session — the only things of
 * value there — are answered to allowed origins alone.
 */
import type { MiddlewareHandler } from 'hono';
import { normalizeOrigin, type OriginPolicy } from '../security/origin-policy';
import { addAnswerHeaders, answerBody } from './answer';
import type { AppEnv } from './app-env';

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Checkout-Secret, X-Manage-Token';
const EXPOSE_HEADERS = 'ETag, Retry-After, X-Request-Id, Idempotent-Replayed';
/** Where a foreign page may read a refusal: the widget's start and session creation. */
const REFUSAL_READABLE = /^\/v1\/(?:sessions|widgets\/[^/]+\/start)$/;

/** A well-formed origin in the canonical form browsers send (not `null`, not hand-written variants). */
function wellFormed(raw: string | undefined): string | null {
  return raw !== undefined && normalizeOrigin(raw) === raw ? raw : null;
}

/** CORS for `/v1/*` (not `/v1/partner/*`, which browsers never call). */
export function widgetCors(policy: OriginPolicy): MiddlewareHandler<AppEnv> {
  return async function cors(c, next) {
    const raw = c.req.header('Origin');
    const allowed = policy.allow(raw);
    const refusalReader = allowed === null && REFUSAL_READABLE.test(c.req.path) ? wellFormed(raw) : null;
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = { Vary: 'Origin' };
      const origin = allowed ?? refusalReader;
      if (origin !== null) {
        Object.assign(headers, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': allowed === null ? 'POST, OPTIONS' : ALLOW_METHODS,
          'Access-Control-Allow-Headers': allowed === null ? 'Content-Type' : ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
        });
      }
      return answerBody(c, null, 204, headers);
    }
    addAnswerHeaders(
      c,
      allowed === null
        ? { Vary: 'Origin' }
        : {
            Vary: 'Origin',
            'Access-Control-Allow-Origin': allowed,
            'Access-Control-Expose-Headers': EXPOSE_HEADERS,
          },
    );
    await next();
    if (refusalReader !== null && c.res.status >= 400) {
      c.res.headers.set('Access-Control-Allow-Origin', refusalReader);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
  };
}
