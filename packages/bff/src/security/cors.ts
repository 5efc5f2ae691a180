/**
 * @module
 * CORS for the widget API: only an allowed origin, echoed exactly (never `*`), always with `Vary: Origin`;
 * preflights answered here. Which widget an origin may use is checked later, against the session.
 *
 * One exception, so that a page on a foreign website can tell its traveller why the store does not open:
 * `POST /v1/sessions` lets any well-formed origin read its *refusals* (the preflight is answered, and an error
 * answer carries that origin). A refusal holds nothing but its error code, no credentials are ever involved,
 * and a session — the only thing of value there — is issued to allowed origins alone.
 */
import type { MiddlewareHandler } from 'hono';
import { addAnswerHeaders, answerBody } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { normalizeOrigin, type OriginPolicy } from './origin-policy';

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Checkout-Secret, X-Manage-Token';
const EXPOSE_HEADERS = 'ETag, Retry-After, X-Request-Id, Idempotent-Replayed';
const SESSIONS_PATH = '/v1/sessions';

/** A well-formed origin in the canonical form browsers send (not `null`, not hand-written variants). */
function wellFormed(raw: string | undefined): string | null {
  return raw !== undefined && normalizeOrigin(raw) === raw ? raw : null;
}

/** CORS for `/v1/*` (not `/v1/partner/*`, which browsers never call). */
export function widgetCors(policy: OriginPolicy): MiddlewareHandler<AppEnv> {
  return async function cors(c, next) {
    const raw = c.req.header('Origin');
    const allowed = policy.allow(raw);
    const refusalReader = allowed === null && c.req.path === SESSIONS_PATH ? wellFormed(raw) : null;
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
