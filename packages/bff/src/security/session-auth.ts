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
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { enforceLimit } from './rate-limit';
import type { SessionSigner } from './session-token';

export interface SessionAuthOptions {
  signer: SessionSigner;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
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
    // Browsers send no Origin on same-origin GETs (a page served by the BFF itself, like the demo); the
    // browser-set Sec-Fetch-Site says so, and then the page's origin is ours.
    const origin =
      c.req.header('Origin') ??
      (c.req.header('Sec-Fetch-Site') === 'same-origin' ? new URL(c.req.url).origin : undefined);
    if (origin !== claims.org || widget.originPolicy.allow(origin) === null) throw invalid('origin');
    annotateRequest({ widgetId: widget.config.id });
    await enforceLimit(options.store, {
      name: `session-requests:${claims.sid}`,
      limit: widget.config.limits.requestsPerSessionPerMinute,
      windowMs: 60_000,
    });
    c.set('session', claims);
    c.set('widget', widget);
    await next();
  };
}
