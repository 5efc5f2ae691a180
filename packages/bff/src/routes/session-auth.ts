/**
 * @module
 * The session check of every widget route: a valid bearer token, for a widget that exists and is enabled,
 * in the token's environment, presented from the very origin it was issued to; then the per-session rate
 * limit. Anything else is `widget_session_invalid`.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import { annotateRequest } from '../http/request-context';
import { limitedAddress } from '../security/client-ip';
import { enforceLimit } from '../security/rate-limit';
import type { SessionSigner } from '../security/session-token';
import type { Store } from '../store/store';
import { runForUpstreamCaller } from '../upstream/upstream-caller';
import type { WidgetRuntime } from '../widgets/widget-runtime';

export interface SessionAuthOptions {
  signer: SessionSigner;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  /** The BFF's public origin (behind a TLS-terminating proxy the request URL does not show it). */
  publicOrigin?: string | undefined;
}

/**
 * The origins a request may come from. Browsers omit `Origin` on same-origin GETs (a page served by the BFF
 * itself, like the demo); they do send `Sec-Fetch-Site: same-origin`, which no page can forge, and then the
 * origin is the BFF's own: the request URL's, or the configured public origin behind a TLS-terminating proxy.
 */
export function requestOrigins(
  header: (name: string) => string | undefined,
  url: string,
  publicOrigin: string | undefined,
): string[] {
  const origin = header('Origin');
  if (origin !== undefined) return [origin];
  if (header('Sec-Fetch-Site') !== 'same-origin') return [];
  return publicOrigin === undefined ? [new URL(url).origin] : [new URL(url).origin, publicOrigin];
}

const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });

/** Requires `Authorization: Bearer <session token>` and the session's `Origin`. */
export function sessionAuth(options: SessionAuthOptions): MiddlewareHandler<AppEnv> {
  return async function requireSession(c, next) {
    const authorization = c.req.header('Authorization');
    const match = authorization === undefined ? null : /^Bearer ([A-Za-z0-9._-]+)$/.exec(authorization);
    if (match === null) throw invalid('missing');
    const claims = options.signer.verify(match[1] as string);
    const widget = options.widgets.get(claims.wid);
    if (widget === undefined) throw invalid('widget');
    if (widget.config.environment !== claims.env) throw invalid('environment');
    if (!widget.config.enabled) throw new ApiError('storefront_app_disabled');
    // The same origin the session was issued to, and still allowed now (the config may have changed).
    const origins = requestOrigins((name) => c.req.header(name), c.req.url, options.publicOrigin);
    if (!origins.includes(claims.org) || widget.originPolicy.allow(claims.org) === null)
      throw invalid('origin');
    annotateRequest({ widgetId: widget.config.id });
    await enforceLimit(options.store, {
      name: `session-requests:${claims.sid}`,
      limit: widget.config.limits.requestsPerSessionPerMinute,
      windowMs: 60_000,
    });
    c.set('session', claims);
    c.set('widget', widget);
    // The upstream calls this request causes count in its address's and session's shares of the key.
    const address = limitedAddress(c.get('clientIp'));
    await runForUpstreamCaller({ kind: 'traveller', address, sessionId: claims.sid }, next);
  };
}
