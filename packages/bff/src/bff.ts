/**
 * @module
 * The composition root: from a loaded config to a running BFF, as the list of its features — each built by its
 * own `create…Feature` from the few ports it needs, answering what it serves and the background work it adds
 * (started here, stopped by `close()`). What a BFF is built from and holds is `bff-options.ts`.
 */
import { createAfterSaleFeature } from './after-sale/after-sale-feature';
import { createBffApp } from './app';
import { awaitBackgroundStop, startBackground, stopTimeline } from './background-stop';
import type { Bff, CreateBffOptions } from './bff-options';
import { createCheckoutFeature } from './checkout/checkout-feature';
import { retentionMs } from './config/config-schema';
import { createConsoleRoutes } from './console/console-feature';
import { createPartnerFunding, paymentHoldOptions, unpaidHoldOptions } from './funding/partner-funding';
import { createAnswerCache } from './http/answer-cache';
import { requestScopedLogger } from './http/request-context';
import { createMailFeature, installationMailTransport } from './mail/mail-feature';
import { createBffObservability } from './observability/bff-observability';
import { createOperationsApp } from './operations-app';
import { createPrivacyFeature } from './privacy/privacy-feature';
import { createFunnelCounters } from './sales-ledger/funnel-counters';
import { createSalesDesk } from './sales-ledger/sales-desk';
import { createSalesLedger } from './sales-ledger/sales-ledger';
import { keyedDigest } from './security/keyed-digest';
import { presentedSecretDigest } from './security/presented-secret';
import { createSessionSigner } from './security/session-token';
import { indexBuildAtStart } from './store/index-rebuild';
import { createMemoryStore } from './store/memory-store';
import { createSupportDesk } from './support-desk/support-desk';
import { createWebhookEmitter, queueOrderUnmatched } from './webhooks/webhook-events';
import { createWebhookQueue } from './webhooks/webhook-queue';
import { createWebhooksFeature } from './webhooks/webhooks-feature';
import { createWidgetsFeature } from './widgets/widgets-feature';

export type { Bff, CreateBffOptions } from './bff-options';

/** Build the BFF from a loaded config. */
export function createBff(options: CreateBffOptions): Bff {
  const { loaded, now } = options;
  const { config } = loaded;
  const observability = createBffObservability(options.observability);
  const { metrics, tracing } = observability;
  const store = observability.observedStore(options.store ?? createMemoryStore());
  // The root secrets, newest first: the first signs every kind of token, each one still verifies what it signed.
  const rootSecrets = [loaded.sessionSecret, ...(loaded.previousSessionSecrets ?? [])];
  const signer = createSessionSigner({
    secret: loaded.sessionSecret,
    previousSecrets: loaded.previousSessionSecrets,
    ttlSeconds: config.sessionTtlSeconds,
    now: now ?? Date.now,
  });
  const logger = requestScopedLogger(options.logger);
  const watchIntervalMs = options.watchIntervalMs ?? config.checkoutWatchSeconds * 1000;
  const retention = retentionMs(config.retention);
  // What every feature may be given; each one's options name what it takes of it.
  const ground = { config, store, logger, now, rootSecrets, retention, watchIntervalMs };

  const catalogs = createWidgetsFeature({
    ...ground,
    loaded,
    publicOrigin: options.publicOrigin,
    logoTestHost: options.logoTestHost,
    upstreamSleep: options.upstreamSleep,
    observer: observability.outgoingCalls,
    onBudgetRefusal: metrics === null ? undefined : (share) => metrics.upstreamBudgetRefusals.inc({ share }),
  });
  const { widgets } = catalogs;
  // Funding, checkouts and help requests tell the partner through the webhook queue; it is sent further down.
  const webhookQueue = createWebhookQueue(store, retention.webhookDeliveryMs, now);
  const mailTransport = installationMailTransport(loaded);
  const funding = createPartnerFunding({
    ...ground,
    widgets,
    webhooks: webhookQueue,
    accountFreshMs: config.accountCacheMs,
    unpaidHolds: unpaidHoldOptions(config.unpaidHolds),
    paymentHolds: paymentHoldOptions(config.paymentHolds),
    onRefusal: (code, cap) => metrics?.fundingRefusals.inc({ code, cap }),
    holderDigest: keyedDigest(rootSecrets, 'funding-holder'),
  });
  const funnel = createFunnelCounters({ store, keptMs: retention.salesLedgerMs, logger, now });
  const salesLedger = createSalesLedger({ store, retentionMs: retention.salesLedgerMs, now, funnel });
  const checkout = createCheckoutFeature({
    ...ground,
    widgets,
    funding,
    reactions: {
      webhooks: createWebhookEmitter({ queue: webhookQueue, widgets, logger }),
      // The emails are built below, for they read the checkouts; a checkout calls this only once it is ready.
      installationEmails: mailTransport === null ? undefined : (entered) => mail.queueEmail(entered),
      salesLedger,
    },
    reportUnmatched: (widget, order, time) => queueOrderUnmatched(webhookQueue, widget, order, time),
    counted: metrics === null ? undefined : (status) => metrics.checkoutTransitions.inc({ status }),
  });
  const { checkouts, repository, esimOwners, indexNames } = checkout;
  const onCheckouts = { ...ground, widgets, webhookQueue, checkouts, repository, esimOwners, indexNames };
  const webhooks = createWebhooksFeature({
    ...onCheckouts,
    queue: webhookQueue,
    observer: observability.outgoingCalls,
    sender: options.webhooks,
  });
  const afterSale = createAfterSaleFeature({
    ...onCheckouts,
    refundSeen: (checkoutId) => salesLedger.refundSeen(checkoutId),
    actionRequestRetentionMs: retention.actionRequestMs,
  });
  const mail = createMailFeature({
    ...onCheckouts,
    transport: mailTransport,
    afterSale: afterSale.afterSale,
    intervalMs: options.mail?.intervalMs,
  });
  const supportDesk = createSupportDesk(onCheckouts);
  const privacy = createPrivacyFeature({
    ...onCheckouts,
    sessionSecret: loaded.sessionSecret,
    manageTokens: afterSale.manageTokens,
    webhookDesk: webhooks.desk,
    actionRequestTtlMs: retention.actionRequestMs,
    receiptKeptMs: retention.esimMs,
    afterStep: options.privacyErasureStep,
  });
  // The services the routes, the console and the tests reach: one list for all three.
  const services = {
    ...{ checkouts, funding, esimOwners, supportDesk, salesDesk: createSalesDesk(store), funnel },
    ...{ afterSale: afterSale.afterSale, manageTokens: afterSale.manageTokens, webhookDesk: webhooks.desk },
  };
  // The partner console: a feature on those services, its routes mounted ahead of the static site.
  const consoleRoutes = createConsoleRoutes({
    ...{ ...ground, ...services, widgets, privacyErasures: privacy.erasures, now: now ?? Date.now },
    ...{ ssoSecret: loaded.consoleSsoSecret, consoleDist: options.consoleDist ?? null },
  });

  const indexBuild = indexBuildAtStart(
    [checkout, webhooks, afterSale, salesLedger].flatMap((feature) => feature.indexedRecords),
    { store, logger },
  );
  const workers = [
    indexBuild,
    funnel.background,
    ...[webhooks, mail, checkout, afterSale, privacy].flatMap((feature) => feature.background),
  ];
  const answers = createAnswerCache({
    logger: options.logger,
    observe: observability.keptAnswers,
    compress: config.compression,
  });
  // What both apps are given: the options' files, routes, origin, logger and clock, and what they answer from.
  const { operationsToken } = loaded;
  const served = { ...options, config, widgets, store, metrics, tracing, operationsToken };
  const app = createBffApp({
    ...served,
    answers,
    checkAnswers: options.checkAnswers ?? process.env.NODE_ENV !== 'production',
    signer,
    secretDigest: presentedSecretDigest(loaded.sessionSecret),
    addressDigest: keyedDigest(rootSecrets, 'counted-address'),
    requestFingerprint: keyedDigest(rootSecrets, 'request-fingerprint'),
    ...{ ...services, consoleRoutes, privacy },
  });
  observability.registerGauges({ store, webhookQueue, widgets });
  const { readinessCacheMs } = config;
  const operationsApp =
    metrics && createOperationsApp({ ...served, registry: metrics.registry, readinessCacheMs });
  if (options.startCatalogs !== false) startBackground(catalogs.background);
  if (options.startWorkers !== false) startBackground(workers);
  return {
    app,
    answers,
    widgets,
    store,
    signer,
    ...services,
    webhookQueue,
    webhookSender: webhooks.sender,
    installationEmails: mail.installationEmails,
    checkoutWatch: checkout.checkoutWatch,
    actionRequestWatch: afterSale.actionRequestWatch,
    widgetSalesWatch: webhooks.widgetSalesWatch,
    orderReconciliation: checkout.orderReconciliation,
    privacyErasures: privacy.erasures,
    removedWidgets: privacy.removedWidgets,
    indexesBuilt: indexBuild.built,
    metrics,
    operationsApp,
    async close() {
      const waitMs = options.stopWaitMs ?? stopTimeline(config.server.stopSeconds).backgroundWaitMs;
      const stopping = [...workers, ...catalogs.background];
      const stillRunning = await awaitBackgroundStop(stopping, { waitMs, logger });
      // A run still waiting on the upstream has its request failed rather than holding the pool's close.
      const abort = stillRunning.length > 0;
      await Promise.all([...widgets.values()].map((widget) => widget.upstream.close({ abort })));
      await store.close();
      await tracing?.shutdown();
    },
  };
}
