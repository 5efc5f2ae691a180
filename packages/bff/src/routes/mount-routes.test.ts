/**
 * What the BFF mounts is exactly what the API's description says: every route answers at its path, behind its
 * auth and (for a create) its idempotency, and nothing answers that the description lacks.
 */
import {
  API_ROUTES,
  IDEMPOTENCY_KEY_HEADER,
  PARTNER_SECRET_HEADER,
  type RouteAuth,
  type RouteSpec,
} from '@esim-embed/shared';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';
import type { AppEnv } from '../http/app-env';
import type { IdempotencyOptions } from '../http/idempotency';
import { type AuthChains, honoPath, mountRoutes, type RouteHandlers } from './mount-routes';

const ROUTES: readonly RouteSpec[] = API_ROUTES;

/** Mounted for `GET *` after every route: the static site (the demo), which is no API route. */
const SITE_FALLBACK = new Set(['GET *', 'GET /*']);

let stack: Stack;
let token = '';
let catalogPath = '';

beforeAll(async () => {
  // Behind one trusted proxy: a request may speak from its own address (X-Forwarded-For).
  stack = await startStack({ config: (url) => ({ ...testConfig(url), trustedProxyHops: 1 }) });
  const page = await openWidget(stack.server.url, 'shop');
  token = page.token;
  catalogPath = page.session.catalog?.path ?? '';
});
afterAll(async () => {
  await stack?.close();
});

/** The table's path with a value in each parameter (real ones where a public route needs them). */
function pathOf(route: RouteSpec): string {
  const [, , widgetId, version] = catalogPath.split('/').slice(1);
  return route.path
    .replace('{widgetId}', widgetId ?? 'shop')
    .replace('{version}', version ?? 'v')
    .replace('{locale}', 'en')
    .replace('{code}', 'DE')
    .replace('{esimId}', 'esim_unknown')
    .replace('{file}', 'chunk.js')
    .replace('{major}', '1')
    .replace('{id}', 'chk_0000000000000000');
}

/** A request to the route with `headers` (a POST sends an empty JSON body, or the widget a session is for). */
function send(route: RouteSpec, headers: Record<string, string>) {
  const body = route.auth === 'origin' ? { widgetId: 'shop' } : {};
  return call(stack.server.url, pathOf(route), {
    method: route.method,
    headers,
    ...(route.method === 'POST' ? { body } : {}),
  });
}

/** Every credential a route of `auth` asks for, right, and only those. */
function credentials(auth: RouteAuth): Record<string, string> {
  switch (auth) {
    case 'public':
      return {};
    case 'origin':
      return { Origin: SHOP_ORIGIN };
    case 'session':
      return { Origin: SHOP_ORIGIN, Authorization: `Bearer ${token}` };
    // A secret of the right shape: which checkout it opens is the handler's to check.
    case 'session+secret':
      return { Origin: SHOP_ORIGIN, Authorization: `Bearer ${token}`, 'X-Checkout-Secret': 'cs_x' };
    case 'session+manage':
      return { Origin: SHOP_ORIGIN, Authorization: `Bearer ${token}`, 'X-Manage-Token': 'mt_x' };
    case 'partner':
      return { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
  }
}

/** The refusal a request of `auth` without its last credential gets. */
const REFUSED_WITHOUT: Record<Exclude<RouteAuth, 'public'>, { status: number; code: string }> = {
  origin: { status: 403, code: 'widget_origin_forbidden' },
  session: { status: 401, code: 'widget_session_invalid' },
  'session+secret': { status: 404, code: 'checkout_not_found' },
  'session+manage': { status: 401, code: 'widget_session_invalid' },
  partner: { status: 401, code: 'unauthorized' },
};

/** The addresses the partner routes are tried from without a secret, one each. */
let secretlessAddress = 0;

/**
 * The credentials of `auth` without the one it adds last (a session route: without the bearer). A partner route
 * is tried from an address of its own: an address may send one wrong (here: no) secret 20 times a minute, and
 * there are more routes.
 */
function withoutLast(auth: Exclude<RouteAuth, 'public'>): Record<string, string> {
  switch (auth) {
    case 'origin':
      return {};
    case 'partner':
      secretlessAddress += 1;
      return { 'X-Forwarded-For': `198.51.100.${secretlessAddress}` };
    case 'session':
      return { Origin: SHOP_ORIGIN };
    case 'session+secret':
    case 'session+manage':
      return credentials('session');
  }
}

describe('the mounted routes are the API description', () => {
  it('mounts every described route and nothing else', () => {
    const mounted = new Set(
      stack.bff.app.routes
        .filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method} ${route.path}`)
        .filter((route) => !SITE_FALLBACK.has(route)),
    );
    const described = new Set(ROUTES.map((route) => `${route.method} ${honoPath(route)}`));
    expect({ mountedNotDescribed: [...mounted].filter((route) => !described.has(route)) }).toEqual({
      mountedNotDescribed: [],
    });
    expect({ describedNotMounted: [...described].filter((route) => !mounted.has(route)) }).toEqual({
      describedNotMounted: [],
    });
  });

  it.each(ROUTES.filter((route) => route.auth !== 'public'))(
    '$method $path refuses a request without its $auth credentials',
    async (route) => {
      const auth = route.auth as Exclude<RouteAuth, 'public'>;
      const answer = await send(route, withoutLast(auth));
      expect({ status: answer.status, code: answer.body?.error?.code }).toEqual(REFUSED_WITHOUT[auth]);
      if (auth === 'session+manage') expect(answer.body.error.params.reason).toBe('manage_token_missing');
    },
  );

  it.each(ROUTES.filter((route) => route.auth === 'public'))(
    '$method $path answers anyone',
    async (route) => {
      const answer = await send(route, {});
      // The widget is not built for these tests and `{hash}` names no logo: the script and logo routes answer,
      // with not_found.
      const scriptOrLogo = /^\/(widget|v\{major\}\/widget|v1\/brand\/)/.test(route.path);
      const expected = scriptOrLogo ? 404 : route.path === '/readyz' ? answer.status : 200;
      expect(answer.status).toBe(expected);
      expect(answer.status).not.toBe(401);
      expect(answer.body?.error?.code).not.toBe('widget_session_invalid');
    },
  );

  it.each(ROUTES.filter((route) => route.method === 'POST'))(
    '$method $path asks for an Idempotency-Key exactly when the description says so',
    async (route) => {
      const answer = await send(route, credentials(route.auth));
      const refusedForKey =
        answer.status === 400 && answer.body?.error?.params?.field === IDEMPOTENCY_KEY_HEADER;
      expect(refusedForKey).toBe(route.idempotent === true);
    },
  );
});

describe('mountRoutes', () => {
  const noAuth = Object.fromEntries(
    ['public', 'origin', 'session', 'session+secret', 'session+manage', 'partner'].map((auth) => [auth, []]),
  ) as unknown as AuthChains;
  const idempotency = { session: {}, partner: {} } as unknown as Record<
    'session' | 'partner',
    IdempotencyOptions
  >;
  const handlers = Object.fromEntries(
    ROUTES.map((route) => [route.id, (c: { text(body: string): Response }) => c.text(route.id)]),
  ) as unknown as RouteHandlers;

  it('refuses a handler for a route the description lacks', () => {
    const app = new Hono<AppEnv>();
    expect(() =>
      mountRoutes(app, {
        handlers: { ...handlers, undescribed: () => new Response() } as RouteHandlers,
        auth: noAuth,
        idempotency,
      }),
    ).toThrow(/undescribed/);
  });

  it('refuses a described route without a handler', () => {
    const { health: _health, ...rest } = handlers;
    expect(() =>
      mountRoutes(new Hono<AppEnv>(), { handlers: rest as RouteHandlers, auth: noAuth, idempotency }),
    ).toThrow(/health/);
  });

  it('refuses an idempotent route whose auth scopes no key', () => {
    const session = ROUTES.find((route) => route.id === 'createSession') as RouteSpec;
    const routes = [{ ...session, idempotent: true }];
    expect(() =>
      mountRoutes(new Hono<AppEnv>(), {
        handlers: { createSession: handlers.createSession } as RouteHandlers,
        auth: noAuth,
        idempotency,
        routes,
      }),
    ).toThrow(/idempotent/);
  });
});
