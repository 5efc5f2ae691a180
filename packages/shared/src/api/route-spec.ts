/**
 * @module
 * What a route of the BFF's API is (`RouteSpec`), the types a caller reads off one (its path parameters, query,
 * body and answer), and the pure path helpers every consumer shares: filling a path template, matching a path
 * against one, the methods a path answers to. The routes themselves are in `routes/`.
 */
import type { z } from 'zod';
import { UPSTREAM_RELAYED_CODES } from '../upstream/errors';
import type { ApiErrorCode } from './common';

/**
 * How a route is authenticated, each applied by the BFF's mount before the handler runs:
 * - `public`: nothing asked;
 * - `origin`: a known, enabled widget (from the path's `{widgetId}`, else the body) that allows the request's
 *   `Origin`, within its per-address limit (counted apart for starts and for sessions);
 * - `session`: a valid session token presented from its own origin, within the per-session request budget;
 * - `session+secret`: a session and the checkout's client secret (`X-Checkout-Secret`);
 * - `session+manage`: a session and a manage token of the same widget (`X-Manage-Token`);
 * - `partner`: a widget's partner secret (`X-Partner-Secret`); a wrong one within its budget at the address, a
 *   right one's writes (POST) within the partner's budget.
 */
export type RouteAuth = 'public' | 'origin' | 'session' | 'session+secret' | 'session+manage' | 'partner';

/** A method a route answers to (HEAD goes wherever GET does). */
export type RouteMethod = 'GET' | 'POST';

/** One route of the BFF's API: everything about it but its handler, which the BFF registers by `id`. */
export interface RouteSpec<Id extends string = string> {
  /**
   * The name its handler is registered under (and the handler function's own name), the partner SDK's name for it
   * (`client.call(id, …)`) and its OpenAPI `operationId`: camelCase, unique.
   */
  readonly id: Id;
  readonly method: RouteMethod;
  /** OpenAPI-style path (`/v1/checkouts/{id}`). */
  readonly path: string;
  readonly summary: string;
  readonly auth: RouteAuth;
  /**
   * A create that needs an `Idempotency-Key`: the BFF puts its idempotency in front of the handler, scoped by
   * the auth (the session, or the partner secret); clients send a key.
   */
  readonly idempotent?: boolean;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The body may be left out (an empty body reads as `{}`). */
  readonly bodyOptional?: boolean;
  /** Takes an optional `X-Manage-Token`: a quote or checkout for a top-up of that eSIM. */
  readonly acceptsManageToken?: boolean;
  /** The success status and body (`{ data, meta }`). */
  readonly status: 200 | 201 | 202;
  readonly response?: z.ZodType;
  /**
   * Statuses beyond `status` whose body is this route's own `response`, not the error envelope (the readiness
   * check's 503 `not_ready`).
   */
  readonly alsoAnswers?: readonly number[];
  /** Non-JSON answers (the widget bundle, the docs page). */
  readonly contentType?: string;
  /**
   * The error codes this route answers beyond those of every route of its auth (`AUTH_ERROR_CODES`) and of
   * every request (`REQUEST_ERROR_CODES`).
   */
  readonly errors?: readonly ApiErrorCode[];
  /**
   * The route asks the upstream as it answers, and the upstream's refusals (`UPSTREAM_RELAYED_CODES`) come through
   * as they are: the contract does not say which of its codes each of its endpoints answers.
   */
  readonly relaysUpstream?: boolean;
}

/** Codes any request may be answered with: a refused request shape, a busy store, a failure of the BFF. */
export const REQUEST_ERROR_CODES = [
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'rate_limited',
  'store_unavailable',
  'internal',
] as const satisfies readonly ApiErrorCode[];

/** Codes every route of an auth kind may answer, for the credentials it asks. */
export const AUTH_ERROR_CODES = {
  public: [],
  origin: ['widget_origin_forbidden', 'storefront_app_not_found', 'storefront_app_disabled'],
  // A widget switched off, or a white label that does not allow the route now, refuses its sessions' calls.
  session: ['widget_session_invalid', 'storefront_app_disabled'],
  // A missing or wrong client secret reads as a checkout that does not exist; the eSIM of a traveller erased at the
  // partner's request is not given to the tab that bought it either (410 `erased`).
  'session+secret': ['widget_session_invalid', 'storefront_app_disabled', 'checkout_not_found', 'erased'],
  // A manage token of a traveller erased at the partner's request says so (410 `erased`).
  'session+manage': ['widget_session_invalid', 'storefront_app_disabled', 'erased'],
  partner: ['unauthorized'],
} as const satisfies Record<RouteAuth, readonly ApiErrorCode[]>;

/**
 * Every error code a route may answer: its own, the upstream's it relays, its auth's, an idempotent create's and any
 * request's.
 */
export function routeErrorCodes(
  route: Pick<RouteSpec, 'auth' | 'errors' | 'idempotent' | 'relaysUpstream'>,
): ApiErrorCode[] {
  const idempotency: ApiErrorCode[] = route.idempotent === true ? ['idempotency_conflict'] : [];
  return [
    ...new Set<ApiErrorCode>([
      ...(route.errors ?? []),
      ...(route.relaysUpstream === true ? UPSTREAM_RELAYED_CODES : []),
      ...AUTH_ERROR_CODES[route.auth],
      ...idempotency,
      ...REQUEST_ERROR_CODES,
    ]),
  ];
}

/** The names of a path template's parameters: `'/v1/checkouts/{id}'` → `'id'`. */
export type PathParamName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;

/** The values of a route's path parameters. */
export type RouteParams<R extends Pick<RouteSpec, 'path'>> = Record<PathParamName<R['path']>, string>;

/** The query a route reads, as a caller writes it. */
export type RouteQuery<R> = R extends { query: z.ZodType } ? z.input<R['query']> : never;

/** The body a route takes, as a caller writes it. */
export type RouteBody<R> = R extends { body: z.ZodType } ? z.input<R['body']> : never;

/** A route's success answer (`{ data, meta }`), as its schema parses it. */
export type RouteResponse<R> = R extends { response: z.ZodType } ? z.output<R['response']> : never;

/** What a route answers in `data`. */
export type RouteData<R> = RouteResponse<R> extends { data: infer Data } ? Data : never;

/** A path with its `{name}` parameters filled in, each encoded as one path segment (typed callers name them all). */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One segment of a path template: plain text, or a parameter with the segment's text around it. */
export type PathSegment = string | { name: string; before: string; after: string };

/**
 * A path template's segments (`/widget@{version}/widget.js` → `''`, `{ name: 'version', before: 'widget@', after:
 * '' }`, `'widget.js'`): the one reading of the `{name}` grammar, for whoever turns it into a matcher (the BFF's
 * router, {@link matchPath}). A parameter takes one segment, or the part of one between its text.
 */
export function pathSegments(template: string): PathSegment[] {
  return template.split('/').map((segment) => {
    const match = /^([^{}]*)\{(\w+)\}([^{}]*)$/.exec(segment);
    if (match === null) return segment;
    const [, before = '', name = '', after = ''] = match;
    return { name, before, after };
  });
}

const templateRegExps = new Map<string, RegExp>();

/**
 * The parameters of `pathname` if it is an instance of `template` (`null` otherwise), decoded. A parameter takes
 * one path segment, or the part of one between the template's text (`/widget@{version}/…`).
 */
export function matchPath(template: string, pathname: string): Record<string, string> | null {
  let regex = templateRegExps.get(template);
  if (regex === undefined) {
    const source = pathSegments(template)
      .map((segment) =>
        typeof segment === 'string'
          ? escapeRegExp(segment)
          : `${escapeRegExp(segment.before)}(?<${segment.name}>[^/]+)${escapeRegExp(segment.after)}`,
      )
      .join('/');
    regex = new RegExp(`^${source}$`);
    templateRegExps.set(template, regex);
  }
  const match = regex.exec(pathname);
  if (match === null) return null;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.groups ?? {})) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      // Not percent-encoding after all: the handler judges the raw text.
      params[name] = value;
    }
  }
  return params;
}

/**
 * The methods `pathname` answers to among `routes` (empty: the path does not exist). HEAD goes wherever GET
 * does; the widget's routes (`/v1/`, not `/v1/partner/`) answer CORS preflights too.
 */
export function allowedMethods(
  routes: readonly Pick<RouteSpec, 'method' | 'path'>[],
  pathname: string,
): string[] {
  const methods = new Set<string>();
  for (const route of routes) if (matchPath(route.path, pathname) !== null) methods.add(route.method);
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size > 0 && pathname.startsWith('/v1/') && !pathname.startsWith('/v1/partner/'))
    methods.add('OPTIONS');
  return [...methods];
}
