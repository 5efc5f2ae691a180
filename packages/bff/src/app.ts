/**
 * @module
 * The BFF's Hono app: secure headers everywhere, request context and logs, the body limit, client IP,
 * CORS for the widget API, the session check, the routes, and one error and not-found handler.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AfterSaleService } from './after-sale/after-sale-service';
import type { ManageTokens } from './after-sale/manage-token';
import type { CheckoutService } from './checkout/checkout-service';
import { createEsimOwners } from './checkout/esim-owners';
import type { BffConfig } from './config/config-schema';
import { ApiError } from './errors';
import type { PartnerFunding } from './funding/partner-funding';
import { answerHeaders } from './http/answer';
import type { AppEnv } from './http/app-env';
import { createErrorHandler, createNotFoundHandler } from './http/error-handler';
import { requestContext } from './http/request-context';
import type { Logger } from './logger';
import { afterSaleRoutes } from './routes/after-sale';
import { catalogRoutes } from './routes/catalog';
import { checkoutRoutes } from './routes/checkouts';
import { openApiRoutes } from './routes/openapi';
import { operationsRoutes } from './routes/operations';
import { partnerRoutes } from './routes/partner';
import { publicCatalogRoutes } from './routes/public-catalog';
import { allowedMethods } from './routes/route-table';
import { sessionRoutes } from './routes/sessions';
import { staticAssetRoutes } from './routes/static-assets';
import { clientIp, socketAddress } from './security/client-ip';
import { widgetCors } from './security/cors';
import { createOriginPolicy } from './security/origin-policy';
import { SECURITY_HEADERS } from './security/security-headers';
import { sessionAuth } from './security/session-auth';
import type { SessionSigner } from './security/session-token';
import type { Store } from './store/store';
import type { WidgetRuntime } from './widgets/widget-runtime';

/** What the app is built from (see `createBff` for building these from a config). */
export interface BffAppOptions {
  config: BffConfig;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  signer: SessionSigner;
  checkouts: CheckoutService;
  /** The partner's funding (`GET /v1/partner/account`). */
  funding: PartnerFunding;
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  logger: Logger;
  /** The widget's script-tag build; null: `/widget.js` answers not_found. */
  widgetDist?: string | null;
  /** A static site served at `/` (the demo); null: nothing there. */
  siteRoot?: string | null;
  /** The BFF's public origin, when pages served by the BFF itself embed the widget behind a TLS proxy. */
  publicOrigin?: string | undefined;
  /** Extra routes mounted before the static site (the dev entry mounts the demo's partner server). */
  extraRoutes?: Hono<AppEnv> | undefined;
  /** Opens the per-check details of `/readyz`. */
  operationsToken?: string | undefined;
}

/** The BFF's Hono app. */
export function createBffApp(options: BffAppOptions): Hono<AppEnv> {
  const { config, widgets, store, logger } = options;
  const app = new Hono<AppEnv>();
  const anyWidgetOrigin = createOriginPolicy(
    [...widgets.values()].flatMap((widget) => widget.config.allowedOrigins),
  );

  app.onError(createErrorHandler(logger));
  app.notFound(createNotFoundHandler(allowedMethods));

  app.use('*', answerHeaders(SECURITY_HEADERS));
  app.use('*', requestContext(logger));
  app.use('*', async function clientAddress(c, next) {
    c.set(
      'clientIp',
      clientIp({
        socket: socketAddress(c),
        forwardedFor: c.req.header('X-Forwarded-For'),
        trustedProxyHops: config.trustedProxyHops,
      }),
    );
    await next();
  });
  const streamedBodyLimit = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new ApiError('payload_too_large', { params: { limitBytes: config.bodyLimitBytes } });
    },
  });
  app.use('*', async function requestBodyLimit(c, next) {
    // Hono's bodyLimit reads `c.req.raw.body`, which makes @hono/node-server build a whole web Request
    // (streams, AbortController) for every request and loses its fast body path: measured by `pnpm bench`,
    // that was most of the cost of a cached catalog read. Bodiless methods and a declared length need none.
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return await next();
    const length = c.req.header('Content-Length');
    if (length !== undefined && c.req.header('Transfer-Encoding') === undefined && /^\d+$/.test(length)) {
      if (Number(length) > config.bodyLimitBytes) {
        throw new ApiError('payload_too_large', { params: { limitBytes: config.bodyLimitBytes } });
      }
      return await next();
    }
    return await streamedBodyLimit(c, next);
  });

  // The widget API (browsers, CORS); the partner API is server-to-server and has none.
  const cors = widgetCors(anyWidgetOrigin);
  app.use('/v1/*', async function widgetApiCors(c, next) {
    // The partner API is never for browsers; the public catalog is open to every page (its own headers).
    if (c.req.path.startsWith('/v1/partner/') || c.req.path.startsWith('/v1/catalog/')) return await next();
    return await cors(c, next);
  });
  app.route('/', publicCatalogRoutes({ widgets }));
  app.route('/', sessionRoutes({ widgets, signer: options.signer, store }));
  const checkSession = sessionAuth({
    signer: options.signer,
    widgets,
    store,
    publicOrigin: options.publicOrigin,
  });
  // A method the path does not have is `method_not_allowed`, session or not.
  const requireSession: typeof checkSession = async function requireSessionForRoute(c, next) {
    if (!allowedMethods(c.req.path).includes(c.req.method)) return await next();
    // `/x/*` also matches `/x`: check (and count) each request once.
    if (c.get('session') !== undefined) return await next();
    return await checkSession(c, next);
  };
  app.use('/v1/destinations', requireSession);
  app.use('/v1/destinations/*', requireSession);
  app.use('/v1/quotes', requireSession);
  app.use('/v1/checkouts', requireSession);
  app.use('/v1/checkouts/*', requireSession);
  app.use('/v1/my-esim', requireSession);
  app.use('/v1/my-esim/*', requireSession);
  app.route('/', catalogRoutes());
  app.route(
    '/',
    checkoutRoutes({
      checkouts: options.checkouts,
      store,
      idempotencyTtlMs: config.idempotencyTtlHours * 60 * 60 * 1000,
      afterSale: options.afterSale,
      logger,
    }),
  );
  app.route('/', afterSaleRoutes({ afterSale: options.afterSale }));
  app.route(
    '/',
    partnerRoutes({
      checkouts: options.checkouts,
      funding: options.funding,
      widgets,
      store,
      afterSale: options.afterSale,
      manageTokens: options.manageTokens,
      esimOwners: createEsimOwners(store),
      idempotencyTtlMs: config.idempotencyTtlHours * 60 * 60 * 1000,
      logger,
    }),
  );
  app.route('/', operationsRoutes({ widgets, store, operationsToken: options.operationsToken }));
  app.route('/', openApiRoutes());
  if (options.extraRoutes !== undefined) app.route('/', options.extraRoutes);
  app.route(
    '/',
    staticAssetRoutes({ widgetDist: options.widgetDist ?? null, siteRoot: options.siteRoot ?? null }),
  );
  return app;
}
