/**
 * @module
 * The session check of every widget route: a valid bearer token, for a widget that exists and is enabled,
 * in the token's environment, presented from the very origin it was issued to; then the per-session rate
 * limit. Anything else is `widget_session_invalid`. A session that ended may still read back what its checkout's
 * create made, for a bounded grace, and nothing else (`endedSessions`).
 */
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import { annotateRequest } from '../http/request-context';
import { ownOrigin } from '../security/client-ip';
import type { LimitSpec } from '../security/rate-limit';
import type { ReservedLimit } from '../security/reserved-limit';
import type { SessionClaims, SessionSigner } from '../security/session-token';
import type { Store } from '../store/store';
import { runForUpstreamCaller } from '../upstream/upstream-caller';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { EndedSessions } from './mount-routes';

export interface SessionAuthOptions {
  signer: SessionSigner;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  /**
   * The per-session rate limit's counts (one per app: the live and the ended sessions' auth and the kept reads of
   * `keptSessionReads` spend the same).
   */
  sessionRequests: ReservedLimit;
  /** The BFF's public origin (behind a TLS-terminating proxy the request URL does not show it). */
  publicOrigin?: string | undefined;
}

export interface EndedSessionOptions {
  /**
   * How long after its session ended a create's answer may still be read back with its token (and is kept): the
   * config's `idempotencyTtlHours`.
   */
  graceMs: number;
  /** The BFF's clock (the signer's). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * The origins a request may come from. Browsers omit `Origin` on same-origin GETs (a page served by the BFF
 * itself, like the demo); they do send `Sec-Fetch-Site: same-origin`, which no page can forge, and then the
 * origin is the BFF's own: the request URL's — in the scheme the client used, which a trusted proxy that ends TLS
 * says in `X-Forwarded-Proto` (`clientScheme`) — or the configured public origin.
 */
export function requestOrigins(c: Context<AppEnv>, publicOrigin: string | undefined): string[] {
  const origin = c.req.header('Origin');
  if (origin !== undefined) return [origin];
  if (c.req.header('Sec-Fetch-Site') !== 'same-origin') return [];
  const own = ownOrigin(c.req.url, c.get('clientScheme'));
  return publicOrigin === undefined ? [own] : [own, publicOrigin];
}

const invalid = (reason: string) => new ApiError('widget_session_invalid', { params: { reason } });

/** The bearer token of the request: `widget_session_invalid` when there is none. */
function bearerToken(authorization: string | undefined): string {
  const match = authorization === undefined ? null : /^Bearer ([A-Za-z0-9._-]+)$/.exec(authorization);
  if (match === null) throw invalid('missing');
  return match[1] as string;
}

/** The per-session rate limit of `claims`' session in `widget`. */
function sessionRequestLimit(claims: SessionClaims, widget: WidgetRuntime): LimitSpec {
  return {
    name: `session-requests:${claims.sid}`,
    limit: widget.config.limits.requestsPerSessionPerMinute,
    windowMs: 60_000,
  };
}

/**
 * The widget a session may use, from the request's origins: one that exists and is enabled, in the token's
 * environment, and the very origin the session was issued to (still allowed now: the config may have changed).
 */
function sessionWidget(
  claims: SessionClaims,
  origins: readonly string[],
  options: SessionAuthOptions,
): WidgetRuntime {
  const widget = options.widgets.get(claims.wid);
  if (widget === undefined) throw invalid('widget');
  if (widget.config.environment !== claims.env) throw invalid('environment');
  if (!widget.config.enabled) throw new ApiError('storefront_app_disabled');
  if (!origins.includes(claims.org) || widget.originPolicy.allow(claims.org) === null)
    throw invalid('origin');
  return widget;
}

/**
 * What every session's request is held to, ended or not: {@link sessionWidget}, then the per-session rate limit.
 * Sets `session` and `widget`.
 */
async function admitSession(
  c: Context<AppEnv>,
  claims: SessionClaims,
  options: SessionAuthOptions,
): Promise<void> {
  const widget = sessionWidget(claims, requestOrigins(c, options.publicOrigin), options);
  annotateRequest({ widgetId: widget.config.id });
  await options.sessionRequests.take(sessionRequestLimit(claims, widget));
  c.set('session', claims);
  c.set('widget', widget);
}

/**
 * The session check of a read answered from the answer cache (`http/answer-cache.ts`), on the raw request: the
 * same as {@link sessionAuth}'s, without waiting. The id of the widget the request's live session may read with
 * (what the kept answer is keyed by) from `widgetOf`, and, in `admit`, whether this reader may have the answer
 * kept for `widget` — every check of the session auth passed, its origin the one the answer was kept for, and a
 * request of its session's rate limit spent from what this instance holds. Anything else goes to the app, which
 * answers as it would (the refusal, or the answer after reserving more of the rate limit).
 */
export interface KeptSessionReads {
  widgetOf(request: IncomingMessage): string | undefined;
  admit(request: IncomingMessage, widget: WidgetRuntime): boolean;
}

/** The {@link KeptSessionReads} of an app. */
export function keptSessionReads(options: SessionAuthOptions): KeptSessionReads {
  /** The claims of the request's live session, or undefined (no token, or one the app would refuse). */
  function claimsOf(request: IncomingMessage): SessionClaims | undefined {
    try {
      return options.signer.verify(bearerToken(request.headers.authorization));
    } catch {
      return undefined;
    }
  }
  return {
    widgetOf: (request) => claimsOf(request)?.wid,
    admit(request, widget) {
      const claims = claimsOf(request);
      const origin = request.headers.origin;
      // Only a read that names its origin is kept (an own page's read without one goes to the app).
      if (claims === undefined || claims.wid !== widget.config.id || origin === undefined) return false;
      try {
        if (sessionWidget(claims, [origin], options) !== widget) return false;
      } catch {
        return false;
      }
      return options.sessionRequests.takeHeld(sessionRequestLimit(claims, widget).name);
    },
  };
}

/** Requires `Authorization: Bearer <session token>` and the session's `Origin`. */
export function sessionAuth(options: SessionAuthOptions): MiddlewareHandler<AppEnv> {
  return async function requireSession(c, next) {
    const claims = options.signer.verify(bearerToken(c.req.header('Authorization')));
    await admitSession(c, claims, options);
    // The upstream calls this request causes count in its address's and session's shares of the key.
    await runForUpstreamCaller(
      { kind: 'traveller', address: c.get('countedAddress'), sessionId: claims.sid },
      next,
    );
  };
}

/**
 * The session auth of a create whose answer a session may still read back after it ended — the checkout's
 * create, so that a page reloaded after its session's 15 minutes still learns what its create made
 * (`replayAfterSession` of the route's idempotency, `mount-routes.ts`):
 * - `auth(replay)`: a live session goes on as through {@link sessionAuth}; an ended one, held to everything else
 *   a session is (signature, widget, environment, origin, rate limit), goes to `replay` alone — the kept answer of
 *   the create it sent, or its refusal — and never to the route's handler: it can make nothing new;
 * - `ttlMs(c)`: how long such a create's answer is kept — until its session ended plus the grace.
 */
export function endedSessions(options: SessionAuthOptions & EndedSessionOptions): EndedSessions {
  const now = options.now ?? Date.now;
  const live = sessionAuth(options);
  return {
    auth: (replay) =>
      async function requireSessionOrReplay(c, next) {
        const { claims, ended } = options.signer.verifyEnded(
          bearerToken(c.req.header('Authorization')),
          options.graceMs,
        );
        if (!ended) return await live(c, next);
        await admitSession(c, claims, options);
        // Nothing that follows may run under an ended session: `replay` answers, or refuses.
        return await replay(c, async () => {
          throw invalid('expired');
        });
      },
    ttlMs: (c) => c.get('session').exp * 1000 + options.graceMs - now(),
  };
}
