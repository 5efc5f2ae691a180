/**
 * @module
 * The composition root: from a loaded config to a running BFF — one upstream client and one catalog
 * service per widget, the store, the session signer, the one checkout repository with what a checkout's change
 * of status sets off (checkout/checkout-transitions.ts), the checkout service, the after-sale service (manage
 * tokens, my eSIM), the webhook queue with its sender, the installation emails (when a mail transport is
 * configured), the background checkout and help-request watches, the reconciliation of upstream orders with
 * checkouts, the app, and — when asked for — the metrics with their operations app and the tracing of requests and
 * outgoing calls.
 */
import type { Hono } from 'hono';
import { type ActionRequestWatch, createActionRequestWatch } from './after-sale/action-request-watch';
import { type AfterSaleService, createAfterSaleService } from './after-sale/after-sale-service';
import { createManageTokens, type ManageTokens } from './after-sale/manage-token';
import { createBffApp } from './app';
import { awaitBackgroundStop, stopTimeline } from './background-stop';
import { createAccountLogo } from './catalog/account-logo';
import { createCatalogService } from './catalog/catalog-service';
import type { LogoTestHost } from './catalog/logo-fetch';
import { createCheckoutSecrets } from './checkout/checkout-access';
import { createCheckoutIndex, createCheckoutIndexNames, indexedCheckouts } from './checkout/checkout-index';
import { type CheckoutService, createCheckoutService } from './checkout/checkout-service';
import { type CheckoutTransitions, createCheckoutTransitions } from './checkout/checkout-transitions';
import { type CheckoutWatch, createCheckoutWatch } from './checkout/checkout-watch';
import { createEsimOwners } from './checkout/esim-owners';
import { createOrderReconciliation, type OrderReconciliation } from './checkout/order-reconciliation';
import { createOrderReferences } from './checkout/order-references';
import { retentionMs, type WidgetConfig } from './config/config-schema';
import type { LoadedConfig } from './config/load-config';
import { mountConsole } from './console/console-feature';
import { ApiError } from './errors';
import {
  createPartnerFunding,
  type PartnerFunding,
  paymentHoldOptions,
  unpaidHoldOptions,
} from './funding/partner-funding';
import { type AnswerCache, createAnswerCache } from './http/answer-cache';
import type { AppEnv } from './http/app-env';
import { requestScopedLogger } from './http/request-context';
import type { Logger } from './logger';
import { createInstallationEmails, type InstallationEmails } from './mail/installation-email-sender';
import { createMailTransport } from './mail/mail-transport';
import { type BffMetrics, createBffMetrics } from './observability/metrics';
import { outgoingCalls } from './observability/outgoing-calls';
import { registerSalesGauge } from './observability/sales-gauge';
import { registerStateGauges } from './observability/state-gauges';
import { countingStoreErrors } from './observability/store-errors';
import type { Tracing } from './observability/tracing';
import { createOperationsApp } from './operations-app';
import {
  createPrivacyErasures,
  type PrivacyErasures,
  type PrivacyErasuresOptions,
} from './privacy/privacy-erasures';
import { createRemovedWidgets, type RemovedWidgets } from './privacy/removed-widgets';
import { createFunnelCounters } from './sales-ledger/funnel-counters';
import { createSalesDesk } from './sales-ledger/sales-desk';
import { createSalesLedger } from './sales-ledger/sales-ledger';
import { deriveKey } from './security/key-ring';
import { keyedDigest } from './security/keyed-digest';
import { createOriginPolicy } from './security/origin-policy';
import { presentedSecretDigest } from './security/presented-secret';
import { createSessionSigner, type SessionSigner } from './security/session-token';
import { buildIndexesAtStart, type IndexBuildCounts } from './store/index-rebuild';
import { createMemoryStore } from './store/memory-store';
import type { Store } from './store/store';
import { createSupportDesk, type SupportDesk } from './support-desk/support-desk';
import { createUpstreamBudget, type UpstreamBudget } from './upstream/upstream-budget';
import { createUpstreamClient, upstreamCredential } from './upstream/upstream-client';
import { createWebhookBodies } from './webhooks/webhook-body';
import { createWebhookDeliveryDesk } from './webhooks/webhook-delivery-desk';
import { createWebhookEmitter, queueOrderUnmatched } from './webhooks/webhook-events';
import { createWebhookQueue, type WebhookQueue } from './webhooks/webhook-queue';
import { createWebhookSender, type WebhookSender } from './webhooks/webhook-sender';
import { createWidgetSalesWatch, type WidgetSalesWatch } from './webhooks/widget-sales-watch';
import type { WidgetRuntime } from './widgets/widget-runtime';

export interface CreateBffOptions {
  loaded: LoadedConfig;
  logger: Logger;
  /** Default: the memory store. */
  store?: Store;
  /** A folder of widget versions (`<root>/1.2.3/`), as the release lays them out. */
  widgetRoot?: string | null;
  /** One widget build (`packages/widget/dist`). */
  widgetDist?: string | null;
  /** The console page's build (`packages/console/dist`), served at `/console/` when the console is enabled. */
  consoleDist?: string | null;
  siteRoot?: string | null;
  extraRoutes?: Hono<AppEnv>;
  /** Start the catalogs' background refresh at once (default true). */
  startCatalogs?: boolean;
  /** The BFF's public origin, for same-origin brand logos and the account's logo served by the BFF. */
  publicOrigin?: string;
  /**
   * Tests only: a local HTTPS image host the account-logo fetch may reach (it otherwise connects to public
   * addresses alone). Never set by the server's entry point.
   */
  logoTestHost?: LogoTestHost;
  /** Start the webhook sender and the checkout watch loops at once (default true). */
  startWorkers?: boolean;
  /** The webhook sender's loop period, timeout and clock (tests). */
  webhooks?: { intervalMs?: number; timeoutMs?: number; now?: () => number };
  /** How often the installation emails due are claimed, in ms (tests; default 5 s). Their clock is `now`. */
  mail?: { intervalMs?: number };
  /**
   * The clock of session and manage tokens, idempotency leases, checkouts (their placement leases and backoff,
   * quote and payment expiry), the upstream keys' budgets (a 429's pause), the partner's funding (unpaid holds
   * lapse on it), the webhook desk and `/readyz`'s reuse of a result — tests move it forward instead of waiting.
   */
  now?: () => number;
  /**
   * How often the background watches (checkouts, help requests, widget sales) look, in ms: tests set less than
   * the config's `checkoutWatchSeconds`, which it replaces.
   */
  watchIntervalMs?: number;
  /**
   * How the upstream clients wait out a pause between attempts (backoff, a short `Retry-After`): tests move their
   * clock instead of sleeping. Default: a timer.
   */
  upstreamSleep?: (ms: number) => Promise<void>;
  /**
   * Prometheus metrics (served by `operationsApp`) and OpenTelemetry tracing (`startTracing`). Both off by
   * default: the BFF then pays nothing for either.
   */
  observability?: { metrics?: boolean; tracing?: Tracing | null };
  /**
   * Check every JSON success answer against its route's response schema (`http/answer.ts`). Default: on unless
   * `NODE_ENV` is `production` (development and tests check, production does not pay for it).
   */
  checkAnswers?: boolean;
  /**
   * How long `close()` waits for the background runs under way (a watch's sweep, webhook attempts) before it
   * closes the upstream clients and the store anyway, in ms. Default: half the config's `server.stopSeconds` (5 s),
   * within the entry point's forced exit.
   */
  stopWaitMs?: number;
  /**
   * Told after each step of an erasure is recorded (`privacy/privacy-erasures.ts`): tests stop a job there, as a
   * process killed mid-way would. Never set by the server's entry point.
   */
  privacyErasureStep?: PrivacyErasuresOptions['afterStep'];
}

/** A BFF ready to serve: its app and what must be closed after it. */
export interface Bff {
  app: Hono<AppEnv>;
  /** Public catalog answers the server writes again before the app (http/answer-cache.ts). */
  answers: AnswerCache;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  signer: SessionSigner;
  checkouts: CheckoutService;
  funding: PartnerFunding;
  afterSale: AfterSaleService;
  manageTokens: ManageTokens;
  webhookQueue: WebhookQueue;
  webhookSender: WebhookSender;
  /** The installation emails the BFF sends itself; null without a mail transport (`ESIM_BFF_SMTP_URL`). */
  installationEmails: InstallationEmails | null;
  checkoutWatch: CheckoutWatch;
  /** The partner's help requests, followed until they end (action_request.updated webhooks). */
  actionRequestWatch: ActionRequestWatch;
  /** Tells the partner when its widget stops selling and sells again (widget.sales_* webhooks). */
  widgetSalesWatch: WidgetSalesWatch;
  orderReconciliation: OrderReconciliation;
  /** The partner's support desk: its checkouts and eSIMs listed. */
  supportDesk: SupportDesk;
  /** Erasures of a traveller's data the partner asked for, run from the store's work queue. */
  privacyErasures: PrivacyErasures;
  /** Erases the travellers of widgets removed from the config, after `privacy.removedWidgetErasureDays`. */
  removedWidgets: RemovedWidgets;
  /**
   * Settles once the checkouts, webhook deliveries and help requests stored before the partner lists' indexes
   * existed (an upgrade, a state import) are indexed, by this instance or another on the store: answers how many
   * of each kind this one indexed (0 when the store had been indexed already, or another instance did it).
   * Never rejects.
   */
  indexesBuilt: Promise<IndexBuildCounts>;
  /** The metrics, when on. */
  metrics: BffMetrics | null;
  /** `/metrics`, `/healthz` and `/readyz` for the operations listener, when metrics are on. */
  operationsApp: Hono<AppEnv> | null;
  /**
   * Stop the background work and wait for its runs under way (at most `stopWaitMs`), then close the upstream
   * clients, the store and the tracing.
   */
  close(): Promise<void>;
}

/** One budget per upstream key, shared by the widgets that use the key (several partners' widgets may). */
function upstreamBudgets(
  options: CreateBffOptions,
  store: Store,
  logger: Logger,
  metrics: BffMetrics | null,
): ReadonlyMap<string, UpstreamBudget> {
  const { config, secrets } = options.loaded;
  const byCredential = new Map<string, WidgetConfig[]>();
  for (const widget of config.widgets) {
    const apiKey = secrets.get(widget.id)?.apiKey;
    if (apiKey === undefined) continue;
    const credential = upstreamCredential(widget.upstream.baseUrl, apiKey);
    byCredential.set(credential, [...(byCredential.get(credential) ?? []), widget]);
  }
  const budgets = new Map<string, UpstreamBudget>();
  for (const [credential, sharing] of byCredential) {
    const configured = sharing.flatMap((widget) => widget.upstream.rateLimitPerMinute ?? []);
    budgets.set(
      credential,
      createUpstreamBudget({
        store,
        credential,
        configuredLimit: configured.length > 0 ? Math.min(...configured) : undefined,
        widgetsOnKey: sharing.length,
        percents: config.upstreamBudget,
        logger: logger.child({ widgetIds: sharing.map((widget) => widget.id) }),
        onRefusal: metrics === null ? undefined : (share) => metrics.upstreamBudgetRefusals.inc({ share }),
        now: options.now,
      }),
    );
  }
  return budgets;
}

/** Build the BFF from a loaded config. */
export function createBff(options: CreateBffOptions): Bff {
  const { loaded, logger } = options;
  const { config } = loaded;
  const scopedLogger = requestScopedLogger(logger);
  const watchIntervalMs = options.watchIntervalMs ?? config.checkoutWatchSeconds * 1000;
  const metrics = options.observability?.metrics === true ? createBffMetrics() : null;
  const tracing = options.observability?.tracing ?? null;
  const observer = outgoingCalls(metrics, tracing);
  const baseStore = options.store ?? createMemoryStore();
  const store = metrics === null ? baseStore : countingStoreErrors(baseStore, metrics.storeErrors);
  const widgets = new Map<string, WidgetRuntime>();
  const budgets = upstreamBudgets(options, store, scopedLogger, metrics);
  for (const widgetConfig of config.widgets) {
    const secrets = loaded.secrets.get(widgetConfig.id);
    if (secrets === undefined) throw new Error(`no secrets were resolved for widget ${widgetConfig.id}`);
    const widgetLogger = scopedLogger.child({ widgetId: widgetConfig.id });
    const budget = budgets.get(upstreamCredential(widgetConfig.upstream.baseUrl, secrets.apiKey));
    const upstream = createUpstreamClient({
      baseUrl: widgetConfig.upstream.baseUrl,
      apiKey: secrets.apiKey,
      tls: secrets.upstreamTls,
      timeoutMs: widgetConfig.upstream.timeoutMs,
      maxRetries: widgetConfig.upstream.maxRetries,
      logger: widgetLogger,
      observer,
      budget: budget?.gate(widgetConfig.id),
      sleep: options.upstreamSleep,
    });
    const accountLogo = createAccountLogo({
      widgetId: widgetConfig.id,
      publicOrigin: options.publicOrigin,
      testHost: options.logoTestHost,
      logger: widgetLogger,
    });
    const catalog = createCatalogService({
      upstream,
      pricing: widgetConfig.pricing,
      brandOverrides: widgetConfig.brand,
      displayName: widgetConfig.displayName,
      widget: widgetConfig,
      publicOrigin: options.publicOrigin,
      accountLogo,
      logger: widgetLogger,
      refreshIntervalMs: config.catalogRefreshSeconds * 1000,
    });
    widgets.set(widgetConfig.id, {
      config: widgetConfig,
      partnerSecret: secrets.partnerSecret,
      webhookSecret: secrets.webhookSecret,
      originPolicy: createOriginPolicy(widgetConfig.allowedOrigins),
      upstream,
      catalog,
      accountLogo,
    });
  }
  // The root secrets, newest first: the first signs every kind of token, each one still verifies what it signed.
  const rootSecrets = [loaded.sessionSecret, ...(loaded.previousSessionSecrets ?? [])];
  const signer = createSessionSigner({
    secret: loaded.sessionSecret,
    previousSecrets: loaded.previousSessionSecrets,
    ttlSeconds: config.sessionTtlSeconds,
    now: options.now ?? Date.now,
  });
  const retention = retentionMs(config.retention);
  // Exact values name the lists' indexes by their keyed digest; a search reads their earlier names too.
  const indexNames = createCheckoutIndexNames(keyedDigest(rootSecrets, 'index-name'));
  const webhookQueue = createWebhookQueue(store, retention.webhookDeliveryMs, options.now);
  const mailTransport = loaded.smtpUrl === undefined ? null : createMailTransport(loaded.smtpUrl);
  const mailing = config.widgets.filter((widget) => widget.mail !== undefined).map((widget) => widget.id);
  if (mailTransport === null && mailing.length > 0) {
    throw new Error(`no SMTP URL was loaded for the installation emails of ${mailing.join(', ')}`);
  }
  const funding = createPartnerFunding({
    store,
    widgets,
    logger: scopedLogger,
    webhooks: webhookQueue,
    accountFreshMs: config.accountCacheMs,
    unpaidHolds: unpaidHoldOptions(config.unpaidHolds),
    paymentHolds: paymentHoldOptions(config.paymentHolds),
    now: options.now,
    onRefusal: (code, cap) => metrics?.fundingRefusals.inc({ code, cap }),
    holderDigest: keyedDigest(rootSecrets, 'funding-holder'),
  });
  const orderReferences = createOrderReferences(store, retention.checkoutMs);
  const funnel = createFunnelCounters({
    store,
    keptMs: retention.salesLedgerMs,
    logger: scopedLogger,
    now: options.now,
  });
  const salesLedger = createSalesLedger({
    store,
    retentionMs: retention.salesLedgerMs,
    now: options.now,
    funnel,
  });
  const checkoutWatch = createCheckoutWatch({
    store,
    logger: scopedLogger,
    intervalMs: watchIntervalMs,
    settle: (checkoutId, seen) => transitions.settle(checkoutId, seen),
  });
  // The one checkout repository: what a change of status sets off is decided in checkout-transitions.ts.
  const transitions: CheckoutTransitions = createCheckoutTransitions({
    store,
    logger: scopedLogger,
    reactions: {
      webhooks: createWebhookEmitter({ queue: webhookQueue, widgets, logger: scopedLogger }),
      esimOwners: { record: (checkout) => esimOwners.record(checkout) },
      funding,
      installationEmails:
        mailTransport === null
          ? undefined
          : async (entered) => (await installationEmails?.queueEmail(entered)) ?? null,
      watch: checkoutWatch,
      orderReferences,
      salesLedger,
    },
    counted: metrics === null ? undefined : (status) => metrics.checkoutTransitions.inc({ status }),
    indexNames,
    retention,
    now: options.now,
  });
  const { repository } = transitions;
  const esimOwners = createEsimOwners(store, repository, retention.esimMs);
  const checkouts = createCheckoutService({
    store,
    logger: scopedLogger,
    funding,
    secrets: createCheckoutSecrets(rootSecrets),
    statusCacheMs: config.statusCacheMs,
    placementLeaseMs: config.takeoverAfterMs,
    repository,
    now: options.now,
  });
  const orderReconciliation = createOrderReconciliation({
    store,
    widgets,
    repository,
    orderReferences,
    reportUnmatched: (widget, order, time) => queueOrderUnmatched(webhookQueue, widget, order, time),
    logger: scopedLogger,
  });
  /** How long an event is retried before it is given up. */
  const webhookRetryForMs = config.webhookRetryHours * 60 * 60 * 1000;
  // A checkout event's body keeps no traveller's address: it is read from the checkout as the body leaves.
  const webhookBodies = createWebhookBodies(repository);
  const webhookSender = createWebhookSender({
    queue: webhookQueue,
    store,
    widgets,
    logger: scopedLogger,
    retryForMs: webhookRetryForMs,
    backoffFirstMs: config.webhookBackoffSeconds * 1000,
    observer,
    bodies: webhookBodies,
    ...options.webhooks,
  });
  const manageTokens = createManageTokens({ secrets: rootSecrets, store, now: options.now });
  const widgetSalesWatch = createWidgetSalesWatch({
    store,
    queue: webhookQueue,
    widgets,
    logger: scopedLogger,
    intervalMs: watchIntervalMs,
  });
  const actionRequestWatch = createActionRequestWatch({
    store,
    retentionMs: retention.actionRequestMs,
    esimOwners,
    queue: webhookQueue,
    widgets,
    logger: scopedLogger,
    intervalMs: watchIntervalMs,
    async refundCompleted(widget, esimId) {
      const checkoutId = (await esimOwners.sellerOf(esimId))?.checkoutId ?? null;
      if (checkoutId === null) return;
      // The partner's read brings a sold checkout up to date with its order (a refunded order ends it, and its
      // sale says so); once the checkout has gone, the ledger is told of the refund itself.
      const read = await checkouts
        .partnerRead(new Map([[widget.config.id, widget]]), checkoutId, { fresh: true })
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'checkout_not_found') return null;
          throw error;
        });
      if (read === null) await salesLedger.refundSeen(checkoutId);
    },
  });
  const afterSale = createAfterSaleService({
    checkouts,
    manageTokens,
    actionRequests: actionRequestWatch,
    esimOwners,
    logger: scopedLogger,
  });
  const installationEmails =
    mailTransport === null
      ? null
      : createInstallationEmails({
          store,
          repository,
          widgets,
          checkouts,
          afterSale,
          transport: mailTransport,
          logger: scopedLogger,
          intervalMs: options.mail?.intervalMs,
          now: options.now,
        });
  const supportDesk = createSupportDesk({ store, repository, esimOwners, indexNames });
  const webhookDesk = createWebhookDeliveryDesk({
    queue: webhookQueue,
    store,
    retryForMs: webhookRetryForMs,
    bodies: webhookBodies,
    now: options.now,
  });
  const privacyErasures = createPrivacyErasures({
    store,
    repository,
    esimOwners,
    webhookQueue,
    manageTokens,
    widgets,
    digestKey: deriveKey(loaded.sessionSecret, 'privacy-erasure').key,
    // A kept answer rewritten without the traveller lives no longer than the longest kept (a session's create).
    keptAnswerTtlMs: (config.idempotencyTtlHours * 60 * 60 + config.sessionTtlSeconds) * 1000,
    actionRequestTtlMs: retention.actionRequestMs,
    indexNames,
    logger: scopedLogger,
    intervalMs: watchIntervalMs,
    now: options.now,
    afterStep: options.privacyErasureStep,
  });
  const removedWidgets = createRemovedWidgets({
    store,
    configured: new Set(widgets.keys()),
    erasures: privacyErasures,
    erasureDays: config.privacy.removedWidgetErasureDays,
    logger: scopedLogger,
    now: options.now,
  });
  // In the background: a large store is indexed while the BFF serves (lists fill in as it goes).
  let closing = false;
  const indexesBuilt = buildIndexesAtStart(
    [
      indexedCheckouts(
        createCheckoutIndex(store, { names: indexNames, retention, now: options.now }),
        indexNames,
      ),
      webhookQueue.indexedRecords,
      actionRequestWatch.indexedRecords,
      ...salesLedger.indexedRecords,
    ],
    { store, logger: scopedLogger, stopped: () => closing },
  );
  const salesDesk = createSalesDesk(store);
  const answers = createAnswerCache({
    logger,
    // The app's middleware counts and traces the requests it answers; these, answered before it, here.
    observe:
      metrics === null && tracing === null
        ? undefined
        : (route, method, status, seconds) => {
            metrics?.observeRequest(route, method, status, seconds);
            tracing?.observeKeptAnswer(route, method, status, seconds);
          },
    compress: config.compression,
  });
  const app = createBffApp({
    answers,
    checkAnswers: options.checkAnswers ?? process.env.NODE_ENV !== 'production',
    config,
    widgets,
    store,
    signer,
    secretDigest: presentedSecretDigest(loaded.sessionSecret),
    addressDigest: keyedDigest(rootSecrets, 'counted-address'),
    requestFingerprint: keyedDigest(rootSecrets, 'request-fingerprint'),
    checkouts,
    funding,
    afterSale,
    manageTokens,
    esimOwners,
    webhookDesk,
    supportDesk,
    salesDesk,
    funnel,
    privacy: {
      erasures: privacyErasures,
      exports: { store, repository, esimOwners, indexNames, webhookDesk, now: options.now },
    },
    logger,
    widgetRoot: options.widgetRoot,
    widgetDist: options.widgetDist,
    siteRoot: options.siteRoot,
    extraRoutes: options.extraRoutes,
    publicOrigin: options.publicOrigin,
    operationsToken: loaded.operationsToken,
    metrics,
    tracing,
    now: options.now,
  });
  mountConsole(app, {
    ...{ config, widgets, store, rootSecrets, checkouts, supportDesk, salesDesk, webhookDesk, afterSale },
    ...{ esimOwners, privacyErasures, funding, funnel, ssoSecret: loaded.consoleSsoSecret },
    consoleDist: options.consoleDist ?? null,
    now: options.now ?? Date.now,
  });
  let operationsApp: Hono<AppEnv> | null = null;
  if (metrics !== null) {
    registerStateGauges(metrics.registry, { store, webhookQueue });
    registerSalesGauge(metrics.registry, widgets);
    operationsApp = createOperationsApp({
      registry: metrics.registry,
      logger,
      widgets,
      store,
      operationsToken: loaded.operationsToken,
      readinessCacheMs: config.readinessCacheMs,
      now: options.now,
    });
  }
  if (options.startCatalogs !== false) for (const widget of widgets.values()) widget.catalog.start();
  if (options.startWorkers !== false) {
    webhookSender.start();
    installationEmails?.start();
    checkoutWatch.start(checkouts, widgets);
    actionRequestWatch.start();
    widgetSalesWatch.start();
    orderReconciliation.start();
    privacyErasures.start();
    removedWidgets.start();
  }
  return {
    app,
    answers,
    widgets,
    store,
    signer,
    checkouts,
    funding,
    afterSale,
    manageTokens,
    webhookQueue,
    webhookSender,
    installationEmails,
    checkoutWatch,
    actionRequestWatch,
    widgetSalesWatch,
    orderReconciliation,
    supportDesk,
    privacyErasures,
    removedWidgets,
    indexesBuilt,
    metrics,
    operationsApp,
    async close() {
      closing = true;
      // All asked at once, so the wait is the longest run's, not their sum.
      const stillRunning = await awaitBackgroundStop(
        [
          // The index build stops after its page and goes on at the next start; a page waiting on the upstream
          // (an ended help request's read) is bounded like every other run.
          { name: 'index build', stopped: indexesBuilt.then(() => undefined) },
          { name: 'webhook sender', stopped: webhookSender.close() },
          ...(installationEmails === null
            ? []
            : [{ name: 'installation emails', stopped: installationEmails.close() }]),
          { name: 'checkout watch', stopped: checkoutWatch.close() },
          { name: 'help-request watch', stopped: actionRequestWatch.close() },
          { name: 'widget sales watch', stopped: widgetSalesWatch.close() },
          { name: 'order reconciliation', stopped: orderReconciliation.close() },
          { name: 'privacy erasures', stopped: privacyErasures.close() },
          { name: 'removed widgets sweep', stopped: removedWidgets.close() },
          { name: 'postponed placements', stopped: checkouts.close() },
          ...[...widgets].map(([id, widget]) => ({
            name: `catalog refresh of ${id}`,
            stopped: widget.catalog.close(),
          })),
        ],
        {
          waitMs: options.stopWaitMs ?? stopTimeline(config.server.stopSeconds).backgroundWaitMs,
          logger: scopedLogger,
        },
      );
      // A run still waiting on the upstream has its request failed rather than holding the pool's close.
      const abort = stillRunning.length > 0;
      await Promise.all([...widgets.values()].map((widget) => widget.upstream.close({ abort })));
      await store.close();
      await tracing?.shutdown();
    },
  };
}
