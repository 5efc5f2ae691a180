/**
 * @module
 * The BFF's Hono app: request metrics and spans (when on), secure headers everywhere, request context and logs,
 * the body limit, client IP,
 * CORS for the widget API, the routes of the API description (each behind its auth), and one error and not-found
 * handler.
 */
import { API_ROUTES, allowedMethods } from '@esim-embed/shared';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AfterSaleService } from './after-sale/after-sale-service';
import type { ManageTokens } from './after-sale/manage-token';
import type { CheckoutService } from './checkout/checkout-service';
import type { EsimOwners } from './checkout/esim-owners';
import type { BffConfig } from './config/config-schema';
import { ApiError } from './errors';
import type { PartnerFunding } from './funding/partner-funding';
import { answerHeaders } from './http/answer';
import type { AnswerCache } from './http/answer-cache';
import type { AppEnv } from './http/app-env';
import { widgetCors } from './http/cors';
import { createErrorHandler, createNotFoundHandler } from './http/error-handler';
import { requestContext } from './http/request-context';
import { createStaticFiles } from './http/static-files';
import type { Logger } from './logger';
import { httpMetrics } from './observability/http-metrics';
import type { BffMetrics } from './observability/metrics';
import type { Tracing } from './observability/tracing';
import { afterSaleHandlers } from './routes/after-sale';
import { brandLogoHandlers } from './routes/brand-logo';
import { catalogHandlers } from './routes/catalog';
import { checkoutHandlers, sessionIdempotency } from './routes/checkouts';
import { funnelSteps } from './routes/funnel-steps';
import { mountRoutes, routeHandlers, tagRoutes } from './routes/mount-routes';
import { openApiHandlers } from './routes/openapi';
import { operationsHandlers } from './routes/operations';
import { partnerHandlers, partnerIdempotency } from './routes/partner';
import { partnerDeskHandlers } from './routes/partner-desk';
import { partnerSalesHandlers } from './routes/partner-sales';
import { type PrivacyRoutesOptions, privacyHandlers } from './routes/privacy';
import { openToAnyPage, publicCatalogHandlers } from './routes/public-catalog';
import { routeAuth } from './routes/route-auth';
import { endedSessions, keptSessionReads } from './routes/session-auth';
import { sessionHandlers } from './routes/sessions';
import { isWidgetScriptPath, staticSite, widgetAssetHandlers } from './routes/static-assets';
import { findWidgetBuilds } from './routes/widget-builds';
import { widgetStartHandlers, widgetStarts } from './routes/widget-start';
import type { FunnelCounters } from './sales-ledger/funnel-counters';
import type { SalesDesk } from './sales-ledger/sales-desk';
import {
  clientIp,
  forwardedScheme,
  limitedAddress,
  proxySettingWarning,
  socketAddress,
} from './security/client-ip';
import type { KeyedDigest } from './security/keyed-digest';
import { createOriginPolicy } from './security/origin-policy';
import type { SecretDigest } from './security/presented-secret';
import { ReservedLimit } from './security/reserved-limit';
import { SECURITY_HEADERS } from './security/security-headers';
import { SessionLimit } from './security/session-limit';
import type { SessionSigner } from './security/session-token';
import { StartLimit } from './security/start-limit';
import type { Store } from './store/store';
import type { SupportDesk } from './support-desk/support-desk';
import type { WebhookDeliveryDesk } from './webhooks/webhook-delivery-desk';
import type { WidgetRuntime } from './widgets/widget-runtime';

/** What the app is built from (see `createBff` for building these from a config). */
export interface BffAppOptions {
  config: BffConfig;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  signer: SessionSigner;
  /** What the wrong-partner-secret budget counts a presented secret by. */
  secretDigest: SecretDigest;
  /** What the store's counters name a client address by (`countedAddress`): a keyed digest. */
  addressDigest: (address: string) => string;
  /** What an idempotent create asked, as kept with its key: a keyed digest (`http/idempotency.ts`). */
  requestFingerprint: KeyedDigest;
  checkouts: CheckoutService;
  /** The partner's funding (`GET /v1/partner/account`). */
  funding: PartnerFunding;
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  /** Who sold each eSIM and made each delivery link (partner routes reach only their own). */
  esimOwners: EsimOwners;
  /** The partner's webhook deliveries: listed, read, resent. */
  webhookDesk: WebhookDeliveryDesk;
  /** The partner's support desk (its lists). */
  supportDesk: SupportDesk;
  /** The partner's sales ledger, read. */
  salesDesk: SalesDesk;
  /** The funnel's counters, counted as the widget API's requests are answered (absent: none counted). */
  funnel?: FunnelCounters | undefined;
  /** A traveller's data erased and exported at the partner's request. */
  privacy: PrivacyRoutesOptions;
  logger: Logger;
  /** A folder holding one folder per widget version (`<root>/1.2.3/widget.js`), as the release has it. */
  widgetRoot?: string | null;
  /** One widget build (`packages/widget/dist`), its version named by its `integrity.json`. */
  widgetDist?: string | null;
  /** A static site served at `/` (the demo); null: nothing there. */
  siteRoot?: string | null;
  /** The BFF's public origin, when pages served by the BFF itself embed the widget behind a TLS proxy. */
  publicOrigin?: string | undefined;
  /** Extra routes mounted before the static site (the dev entry mounts the demo's partner server). */
  extraRoutes?: Hono<AppEnv> | undefined;
  /** The partner console's routes (`console/console-feature.ts`), mounted before the static site; null: off. */
  consoleRoutes?: Hono<AppEnv> | null;
  /** Opens the per-check details of `/readyz`. */
  operationsToken?: string | undefined;
  /** Requests counted and timed by route (null: no metrics, no cost). */
  metrics?: BffMetrics | null;
  /** A span per request (null: tracing off, no cost). */
  tracing?: Tracing | null;
  /** Keeps the public catalog routes' answers for the server to serve again (absent: nothing kept). */
  answers?: AnswerCache | undefined;
  /**
   * Check every JSON success answer against its route's response schema (`http/answer.ts`): a mismatch is an
   * `internal` error, logged. Default off; `createBff` turns it on outside production.
   */
  checkAnswers?: boolean;
  /** The clock of the idempotency leases and of `/readyz`'s reuse of a result (tests move it). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The BFF's Hono app. */
export function createBffApp(options: BffAppOptions): Hono<AppEnv> {
  const { config, widgets, store, logger } = options;
  const widgetBuilds = findWidgetBuilds(options, logger);
  const staticFiles = createStaticFiles({ compress: config.compression });
  const app = new Hono<AppEnv>();
  const anyWidgetOrigin = createOriginPolicy(
    [...widgets.values()].flatMap((widget) => widget.config.allowedOrigins),
  );

  app.onError(createErrorHandler(logger));
  app.notFound(createNotFoundHandler((path) => allowedMethods(API_ROUTES, path)));

  const metrics = options.metrics ?? null;
  const tracing = options.tracing ?? null;
  const checkAnswers = options.checkAnswers ?? false;
  // Outermost: the answer cache records the app's whole answer, as the client gets it.
  if (options.answers !== undefined) app.use('*', options.answers.recorder);
  if (metrics !== null) app.use('*', httpMetrics(metrics.observeRequest));
  if (tracing !== null) app.use('*', tracing.requestSpan);
  app.use('*', answerHeaders(SECURITY_HEADERS, { checkShapes: checkAnswers, compress: config.compression }));
  app.use('*', requestContext(logger));
  // Metrics, spans and the answers' check go by the route of the table; without any, requests need not know it.
  if (metrics !== null || tracing !== null || checkAnswers) tagRoutes(app);
  const onShortChain = proxySettingWarning(logger, config.trustedProxyHops, options.now);
  app.use('*', async function clientAddress(c, next) {
    const ip = clientIp({
      socket: socketAddress(c),
      forwardedFor: c.req.header('X-Forwarded-For'),
      trustedProxyHops: config.trustedProxyHops,
      onShortChain,
    });
    c.set('clientIp', ip);
    c.set('countedAddress', options.addressDigest(limitedAddress(ip)));
    c.set(
      'clientScheme',
      forwardedScheme({
        forwardedProto: c.req.header('X-Forwarded-Proto'),
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
    // (streams, AbortController) for every request and loses its fast body path, the dearest part of a cached
    // read. Bodiless methods and a declared length need none.
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
    // The partner API is never for browsers; the public catalog and the widget's scripts (`/v1/widget.js`) are
    // open to every page (their own headers).
    const path = c.req.path;
    if (path.startsWith('/v1/partner/') || path.startsWith('/v1/catalog/') || isWidgetScriptPath(path))
      return await next();
    return await cors(c, next);
  });
  app.use('/v1/catalog/*', openToAnyPage);
  if (options.funnel !== undefined) app.use('/v1/*', funnelSteps(options.funnel));

  // Every route of the API description, behind the auth and idempotency its entry names.
  const idempotencyTtlMs = config.idempotencyTtlHours * 60 * 60 * 1000;
  const starts = widgetStarts();
  const startLimit = new StartLimit({ trustedProxyHops: config.trustedProxyHops, now: options.now });
  const sessionAuthOptions = {
    signer: options.signer,
    widgets,
    store,
    sessionRequests: new ReservedLimit({ store, now: options.now }),
    publicOrigin: options.publicOrigin,
  };
  mountRoutes(app, {
    handlers: routeHandlers(
      publicCatalogHandlers({ widgets }),
      brandLogoHandlers({ widgets }),
      widgetStartHandlers(starts, startLimit, options.funnel),
      sessionHandlers({ signer: options.signer, starts, replayGraceMs: idempotencyTtlMs }),
      catalogHandlers(options.answers === undefined ? undefined : keptSessionReads(sessionAuthOptions)),
      checkoutHandlers({
        checkouts: options.checkouts,
        store,
        afterSale: options.afterSale,
        esimOwners: options.esimOwners,
      }),
      afterSaleHandlers({ afterSale: options.afterSale }),
      partnerHandlers({
        checkouts: options.checkouts,
        funding: options.funding,
        afterSale: options.afterSale,
        manageTokens: options.manageTokens,
        esimOwners: options.esimOwners,
        logger,
      }),
      partnerDeskHandlers({
        supportDesk: options.supportDesk,
        store,
        webhookDesk: options.webhookDesk,
        logger,
      }),
      partnerSalesHandlers({ salesDesk: options.salesDesk }),
      privacyHandlers(options.privacy),
      operationsHandlers({
        widgets,
        store,
        operationsToken: options.operationsToken,
        readinessCacheMs: config.readinessCacheMs,
        now: options.now,
      }),
      openApiHandlers(),
      widgetAssetHandlers(widgetBuilds, staticFiles),
    ),
    // A checkout's create can be read back with its session's token for `idempotencyTtlHours` after the session.
    endedSessions: endedSessions({
      ...sessionAuthOptions,
      graceMs: idempotencyTtlMs,
      now: options.now,
    }),
    auth: routeAuth({
      ...sessionAuthOptions,
      secretDigest: options.secretDigest,
      afterSale: options.afterSale,
      starts: startLimit,
      sessions: new SessionLimit({ store, now: options.now }),
      now: options.now,
    }),
    idempotency: {
      session: {
        ...sessionIdempotency({
          store,
          idempotencyTtlMs,
          logger,
          fingerprint: options.requestFingerprint,
          now: options.now,
        }),
        leaseMs: config.takeoverAfterMs,
      },
      partner: {
        ...partnerIdempotency({
          store,
          idempotencyTtlMs,
          logger,
          fingerprint: options.requestFingerprint,
          now: options.now,
        }),
        leaseMs: config.takeoverAfterMs,
      },
    },
  });
  if (options.consoleRoutes) app.route('/', options.consoleRoutes);
  if (options.extraRoutes !== undefined) app.route('/', options.extraRoutes);
  app.get('*', staticSite({ siteRoot: options.siteRoot ?? null, files: staticFiles }));
  return app;
}
