/**
 * @module
 * The middleware behind each kind of route auth of the API description (`RouteAuth`): what the mount puts in
 * front of every handler, so that a route's auth is written once, in its table entry.
 */
import {
  CHECKOUT_SECRET_HEADER,
  CreateSessionRequestSchema,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  WidgetIdSchema,
} from '@esim-embed/shared';
import type { MiddlewareHandler } from 'hono';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import { widgetsForPartnerSecret } from '../checkout/checkout-access';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/app-env';
import { readJsonBody } from '../http/json-body';
import { annotateRequest } from '../http/request-context';
import { limitedAddress } from '../security/client-ip';
import { InstanceWindowCounter } from '../security/instance-window-counter';
import type { SecretDigest } from '../security/presented-secret';
import { enforceLimit, type LimitSpec, rateLimited } from '../security/rate-limit';
import type { SessionLimit } from '../security/session-limit';
import type { StartLimit } from '../security/start-limit';
import type { Store } from '../store/store';
import { runForUpstreamCaller } from '../upstream/upstream-caller';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { AuthChains } from './mount-routes';
import { requestOrigins, type SessionAuthOptions, sessionAuth } from './session-auth';

/** How often one client IP (an IPv6 /64) may send one wrong partner secret per minute before it is refused. */
const FAILED_SECRETS_PER_MINUTE = 20;
/**
 * How many wrong partner secrets, all told, one client IP may send one instance per minute: past it, a client
 * that sends a new secret each time is refused without a store write (each new secret would start a counter of
 * its own).
 */
const WRONG_SECRETS_PER_ADDRESS_PER_MINUTE = 100;

export interface RouteAuthOptions extends SessionAuthOptions {
  /** The starts' counter (shared with the answer cache's kept starts). */
  starts: StartLimit;
  /** The sessions' counter. */
  sessions: SessionLimit;
  /** Verifies manage tokens (`session+manage`). */
  afterSale: AfterSaleService;
  /** What the wrong-secret budget counts a presented partner secret by (`security/presented-secret.ts`). */
  secretDigest: SecretDigest;
  /** The clock of the wrong-secret ceiling's minutes. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * `origin`: the widget named in the path (the start, a GET) or else in the body (a session) exists
 * (`storefront_app_not_found`), the address has starts or sessions left (`rate_limited`: starts counted in this
 * instance's memory, sessions in its memory then the store, `security/session-limit.ts`), the widget is enabled
 * (`storefront_app_disabled`) and allows the request's `Origin` (`widget_origin_forbidden`), in that order. Sets
 * `widget` and `origin`.
 */
export function originAuth(options: {
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  publicOrigin?: string | undefined;
  starts: StartLimit;
  sessions: SessionLimit;
}): MiddlewareHandler<AppEnv> {
  return async function requireAllowedOrigin(c, next) {
    const inPath = c.req.param('widgetId');
    const widgetId =
      inPath === undefined
        ? (await readJsonBody(c, CreateSessionRequestSchema)).widgetId
        : WidgetIdSchema.safeParse(inPath).data;
    const widget = widgetId === undefined ? undefined : options.widgets.get(widgetId);
    if (widget === undefined) {
      throw new ApiError('storefront_app_not_found', { params: widgetId === undefined ? {} : { widgetId } });
    }
    annotateRequest({ widgetId });
    // Starts (page views) and sessions (travellers who quote) are counted apart: page views never use up the
    // sessions of those who buy.
    if (inPath === undefined) {
      await options.sessions.take(widget, limitedAddress(c.get('clientIp')), c.get('countedAddress'));
    } else {
      const taken = options.starts.take(widget, limitedAddress(c.get('clientIp')));
      if (!taken.allowed) throw rateLimited({ name: 'starts', ...taken }, taken.resetInMs);
    }
    if (!widget.config.enabled) throw new ApiError('storefront_app_disabled', { params: { widgetId } });
    // A page of the BFF's own origin starts with a GET that carries no `Origin` (see `requestOrigins`).
    const origin =
      requestOrigins(c, options.publicOrigin)
        .map((candidate) => widget.originPolicy.allow(candidate))
        .find((allowed) => allowed !== null) ?? null;
    if (origin === null) throw new ApiError('widget_origin_forbidden', { params: { widgetId } });
    c.set('widget', widget);
    c.set('origin', origin);
    await runForUpstreamCaller(
      { kind: 'traveller', address: c.get('countedAddress'), sessionId: null },
      next,
    );
  };
}

/**
 * `+secret`: a client secret is sent. Which checkout it opens is the checkout service's to check, with the
 * record in hand; a missing one is refused here with the same answer ("no such checkout": nothing to probe).
 */
export function checkoutSecretPresent(): MiddlewareHandler<AppEnv> {
  return async function requireCheckoutSecret(c, next) {
    if ((c.req.header(CHECKOUT_SECRET_HEADER) ?? '') === '') throw new ApiError('checkout_not_found');
    await next();
  };
}

/** `+manage`: a manage token of the session's widget (after-sale), verified and set as `manage`. */
export function manageTokenAuth(afterSale: AfterSaleService): MiddlewareHandler<AppEnv> {
  return async function requireManageToken(c, next) {
    const caller = { claims: c.get('session'), widget: c.get('widget') };
    c.set('manage', await afterSale.verifyManageToken(caller, c.req.header(MANAGE_TOKEN_HEADER)));
    await next();
  };
}

/**
 * `partner`: the partner secret of one or more widgets, compared in constant time before anything else, so that
 * the right secret is answered whatever others sent. A wrong one spends a budget of its own address *and* its
 * own value (`unauthorized`, then `rate_limited` with `Retry-After` until the minute ends): a server that keeps
 * sending a stale secret is slowed down, and nobody behind the same address — a shared NAT, every caller when no
 * proxy is trusted — can spend the right secret's way in. All wrong secrets of one address together meet a
 * ceiling per instance, kept in memory, so that a new secret on every request cannot make a store write of each.
 * Guessing is not what these budgets stop: a partner
 * secret is at least 32 random bytes (checked at start). A right secret's writes (POST) spend the partner's
 * budget (`limits.partnerWritesPerMinute`). Sets `partnerWidgets`.
 */
export function partnerAuth(options: {
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  secretDigest: SecretDigest;
  /** The clock of the wrong-secret ceiling's minutes. Default `Date.now`. */
  now?: (() => number) | undefined;
}): MiddlewareHandler<AppEnv> {
  const wrongSecrets = new InstanceWindowCounter({ windowMs: 60_000, now: options.now });
  return async function requirePartnerSecret(c, next) {
    const presented = c.req.header(PARTNER_SECRET_HEADER);
    const matched = widgetsForPartnerSecret(options.widgets.values(), presented);
    if (matched.size === 0) {
      const address = c.get('countedAddress');
      const ceiling = {
        name: 'wrong-partner-secrets',
        limit: WRONG_SECRETS_PER_ADDRESS_PER_MINUTE,
        windowMs: 60_000,
      };
      const { count, resetInMs } = wrongSecrets.hit(address);
      if (count > ceiling.limit) throw rateLimited(ceiling, resetInMs);
      await enforceLimit(options.store, {
        name: `partner-secret-failures:${address}:${options.secretDigest(presented ?? '')}`,
        limit: FAILED_SECRETS_PER_MINUTE,
        windowMs: 60_000,
      });
      throw new ApiError('unauthorized', { params: { header: PARTNER_SECRET_HEADER } });
    }
    const widgets = new Map<string, WidgetRuntime>();
    for (const id of matched) widgets.set(id, options.widgets.get(id) as WidgetRuntime);
    if (matched.size === 1) annotateRequest({ widgetId: [...matched][0] });
    // A partner route's method is its table entry's (another is answered 405 before any auth): POST is a write.
    if (c.req.method === 'POST') await enforceLimit(options.store, partnerWrites(widgets));
    c.set('partnerWidgets', widgets);
    // A partner's server is not a traveller: its calls count in its widget's share only.
    await runForUpstreamCaller({ kind: 'partner', address: null, sessionId: null }, next);
  };
}

/**
 * The budget of a partner's writes: one counter per partner secret, named by the widgets it opens (the same
 * name on every instance, and across a rotation of the secret), within the smallest of their settings.
 */
function partnerWrites(widgets: ReadonlyMap<string, WidgetRuntime>): LimitSpec {
  const ids = [...widgets.keys()].sort();
  const limits = [...widgets.values()].map((widget) => widget.config.limits.partnerWritesPerMinute);
  return { name: `partner-writes:${ids.join(',')}`, limit: Math.min(...limits), windowMs: 60_000 };
}

/** The middleware of every kind of route auth. */
export function routeAuth(options: RouteAuthOptions): AuthChains {
  const session = sessionAuth(options);
  return {
    public: [],
    origin: [originAuth(options)],
    session: [session],
    'session+secret': [session, checkoutSecretPresent()],
    'session+manage': [session, manageTokenAuth(options.afterSale)],
    partner: [partnerAuth(options)],
  };
}
