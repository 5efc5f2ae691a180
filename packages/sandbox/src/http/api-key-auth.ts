/**
 * @module
 * `X-Api-Key` authentication, the per-key rate limit (fixed one-minute windows, `rate_limited` with
 * `Retry-After`) and scope checks. Before the handler runs, the key's environment is brought up to "now".
 */
import type { KeyScope } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { advanceEnvironment } from '../state/order-lifecycle';
import type { KeyState, SandboxState } from '../state/sandbox-state';
import type { AuthContext, SandboxEnv } from './sandbox-env';
import { SandboxError } from './sandbox-error';

/** The header that carries the API key. */
export const API_KEY_HEADER = 'X-Api-Key';

const WINDOW_MS = 60_000;

/** Counts one request against the key's per-minute limit, or throws `rate_limited`. */
function enforceRateLimit(c: Context<SandboxEnv>, key: KeyState, nowMs: number): void {
  const limit = key.rateLimitPerMinute;
  if (limit === null) return;
  const windowStart = nowMs - (nowMs % WINDOW_MS);
  if (key.windowStartMs !== windowStart) {
    key.windowStartMs = windowStart;
    key.windowCount = 0;
  }
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000));
  c.header('RateLimit-Limit', String(limit));
  c.header('RateLimit-Reset', String(resetSeconds));
  if (key.windowCount >= limit) {
    c.header('RateLimit-Remaining', '0');
    throw new SandboxError('rate_limited', {
      params: { limitPerMinute: limit, retryAfterSeconds: resetSeconds },
      retryAfterSeconds: resetSeconds,
    });
  }
  key.windowCount += 1;
  c.header('RateLimit-Remaining', String(limit - key.windowCount));
}

/** Authenticates the request by its API key and sets `c.var.auth`. */
export function apiKeyAuth(state: SandboxState): MiddlewareHandler<SandboxEnv> {
  return async function apiKeyAuthMiddleware(c, next) {
    // `/quotes` and `/quotes/*` both match `/quotes`: a request is authenticated, and counted, once.
    if (c.get('auth') !== undefined) return await next();
    const secret = c.req.header(API_KEY_HEADER);
    if (!secret)
      throw new SandboxError('unauthorized', { params: { header: API_KEY_HEADER, reason: 'missing' } });
    const key = state.keys.get(secret);
    if (!key)
      throw new SandboxError('unauthorized', { params: { header: API_KEY_HEADER, reason: 'unknown_key' } });
    const nowMs = state.now();
    enforceRateLimit(c, key, nowMs);
    const env = state.environments[key.seed.environment];
    const account = env.accounts.get(key.seed.accountId);
    if (!account) throw new Error(`seeded key ${key.seed.id} names a missing account`);
    advanceEnvironment(state, env, nowMs);
    const auth: AuthContext = { key, env, account, scopes: new Set(key.seed.scopes) };
    c.set('auth', auth);
    await next();
  };
}

/** Throws `scope_missing` unless the key carries `scope`. */
export function requireScope(c: Context<SandboxEnv>, scope: KeyScope): AuthContext {
  const auth = c.get('auth');
  if (!auth.scopes.has(scope)) throw new SandboxError('scope_missing', { params: { scope } });
  return auth;
}
