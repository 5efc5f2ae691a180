/**
 * @module
 * Mounts the API's description (`API_ROUTES` of `@esim-embed/shared`): each route's handler (registered by the
 * route's id in a routes file) behind the route's auth and, for an idempotent create, the idempotency
 * middleware. Nothing else mounts an API route, so what answers is what the description says (checked by
 * `mount-routes.test.ts`); a described route without a handler stops the start. `tagRoutes` names each
 * request's route for the metrics and traces.
 */
import {
  API_ROUTES,
  escapeRegExp,
  pathSegments,
  type RouteAuth,
  type ApiRouteId as RouteId,
  type RouteSpec,
} from '@esim-embed/shared';
import type { Context, Handler, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env';
import { type IdempotencyOptions, idempotency, keptAnswerReplay } from '../http/idempotency';

/**
 * What an idempotent route adds to the idempotency its auth scopes: a resource id, a secret in its answer, and
 * whether its session may still read its answer back after it ended (`endedSessions` of `session-auth.ts`) — only
 * for a route whose kept answer is given back as it is, its secret recomputed: an ended session must cause
 * nothing, not even an upstream call.
 */
export type RouteIdempotency = Pick<IdempotencyOptions, 'resourceId' | 'secret'> & {
  replayAfterSession?: boolean;
};

/** A route's handler, with what its idempotency needs beyond the description's. */
export type RouteHandler = Handler<AppEnv> | { handle: Handler<AppEnv>; idempotency: RouteIdempotency };

/** Handlers by route id (a routes file registers those of its concern). */
export type RouteHandlers<Id extends string = RouteId> = { [K in Id]: RouteHandler };

/** The middleware that holds each kind of auth, in the order it runs. */
export type AuthChains = Record<RouteAuth, readonly MiddlewareHandler<AppEnv>[]>;

/**
 * How a create's answer is read back after its session ended (`session-auth.ts` builds it): the auth in front of
 * such a route, which hands an ended session to `replay` alone, and how long its answers are kept.
 */
export interface EndedSessions {
  auth(replay: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv>;
  ttlMs(c: Context<AppEnv>): number;
}

/** Who scopes an idempotency key: the session, or the partner secret. */
export type IdempotencyScope = 'session' | 'partner';

export interface MountRoutesOptions {
  handlers: RouteHandlers;
  auth: AuthChains;
  /** The idempotency of creates, per scope. */
  idempotency: Record<IdempotencyScope, IdempotencyOptions>;
  /**
   * How the creates whose routes say `replayAfterSession` are read back after their session ended; without it
   * they are mounted as any other (an ended session is refused).
   */
  endedSessions?: EndedSessions;
  /** The routes to mount (default: the API's description). */
  routes?: readonly RouteSpec[];
}

/** The scope of an idempotent route's keys, from its auth (public and origin routes have none to scope by). */
function scopeOf(route: RouteSpec): IdempotencyScope {
  if (route.auth.startsWith('session')) return 'session';
  if (route.auth === 'partner') return 'partner';
  throw new Error(`${route.method} ${route.path} is idempotent but its ${route.auth} auth has no key scope`);
}

/** Merge the handlers of several routes files, refusing a route registered twice. */
export function routeHandlers(...groups: Partial<RouteHandlers>[]): RouteHandlers {
  const merged: Partial<RouteHandlers> = {};
  for (const group of groups) {
    for (const [id, handler] of Object.entries(group) as [RouteId, RouteHandler][]) {
      if (id in merged) throw new Error(`route ${id} has two handlers`);
      merged[id] = handler;
    }
  }
  return merged as RouteHandlers;
}

/**
 * Tell every later middleware which described route a request is for (`c.get('route')`): registered before
 * the app's global middleware that may answer first (body limit, CORS), so that a refusal is counted and traced
 * under its route's pattern too. Requests for no route leave it unset.
 */
export function tagRoutes(app: Hono<AppEnv>, routes: readonly RouteSpec[] = API_ROUTES): void {
  for (const route of routes) {
    app.on(route.method, honoPath(route), async function routeOfRequest(c, next) {
      c.set('route', route);
      await next();
    });
  }
}

/**
 * The route's path as Hono writes it (`/v1/checkouts/:id`). Hono's parameters take whole segments, so a
 * parameter that shares its segment with text (`/widget@{version}/…`) matches the whole segment
 * (`/:version{widget@[^/]+}/…`), and its value keeps that text for the handler to drop.
 */
export function honoPath(route: Pick<RouteSpec, 'path'>): string {
  return pathSegments(route.path)
    .map((segment) => {
      if (typeof segment === 'string') return segment;
      const { name, before, after } = segment;
      if (before === '' && after === '') return `:${name}`;
      return `:${name}{${escapeRegExp(before)}[^/]+${escapeRegExp(after)}}`;
    })
    .join('/');
}

/** Mount every route of the description on `app`, each behind its auth (and idempotency where the description says so). */
export function mountRoutes(app: Hono<AppEnv>, options: MountRoutesOptions): void {
  const routes: readonly RouteSpec[] = options.routes ?? API_ROUTES;
  const known = new Set<string>(routes.map((route) => route.id));
  // A handler without a described route would answer nowhere: a typo, or a route nobody described.
  const unknown = Object.keys(options.handlers).filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new Error(`handlers for routes the API description lacks: ${unknown.join(', ')}`);
  for (const route of routes) {
    const handler = (options.handlers as Partial<Record<string, RouteHandler>>)[route.id];
    if (handler === undefined)
      throw new Error(`route ${route.id} (${route.method} ${route.path}) has no handler`);
    const handle = typeof handler === 'function' ? handler : handler.handle;
    let chain: MiddlewareHandler<AppEnv>[] = [...options.auth[route.auth]];
    if (route.idempotent) {
      const { replayAfterSession = false, ...extra } =
        typeof handler === 'function' ? {} : handler.idempotency;
      const settings: IdempotencyOptions = { ...options.idempotency[scopeOf(route)], ...extra };
      const ended = replayAfterSession ? options.endedSessions : undefined;
      if (ended !== undefined) {
        if (route.auth !== 'session')
          throw new Error(`route ${route.id} is read back after its session, but its auth is ${route.auth}`);
        // Kept as long as its session, ended, may read it back; the session auth hands an ended one to the replay.
        settings.ttlMs = ended.ttlMs;
        chain = [ended.auth(keptAnswerReplay(settings))];
      }
      chain.push(idempotency(settings));
    } else if (typeof handler !== 'function') {
      throw new Error(
        `route ${route.id} has idempotency options but the API description does not make it idempotent`,
      );
    }
    // Hono's overloads type a fixed number of handlers; the chain's length is the route's.
    (app.on as (method: string, path: string, ...handlers: Handler<AppEnv>[]) => unknown)(
      route.method,
      honoPath(route),
      ...chain,
      handle,
    );
  }
}
