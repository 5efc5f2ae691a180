/**
 * @module
 * CORS for the widget API: only an allowed origin, echoed exactly (never `*`), always with `Vary: Origin`;
 * preflights answered here. Which widget an origin may use is checked later, against the session.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import type { OriginPolicy } from './origin-policy';

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Checkout-Secret';
const EXPOSE_HEADERS = 'ETag, Retry-After, X-Request-Id, Idempotent-Replayed';

/** CORS for `/v1/*` (not `/v1/partner/*`, which browsers never call). */
export function widgetCors(policy: OriginPolicy): MiddlewareHandler<AppEnv> {
  return async function cors(c, next) {
    const origin = policy.allow(c.req.header('Origin'));
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = { Vary: 'Origin' };
      if (origin !== null) {
        Object.assign(headers, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
        });
      }
      return c.body(null, 204, headers);
    }
    await next();
    c.res.headers.append('Vary', 'Origin');
    if (origin !== null) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
  };
}
