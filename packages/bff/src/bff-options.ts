/**
 * @module
 * What a BFF is built from (`CreateBffOptions`: the loaded config, and what tests and the entry points set) and
 * what a built one holds (`Bff`), apart from `bff.ts` that builds it, so that the composition root reads as the
 * list of its features.
 */

import type { Hono } from 'hono';
import type { ActionRequestWatch } from './after-sale/action-request-watch';
import type { AfterSaleService } from './after-sale/after-sale-service';
import type { ManageTokens } from './after-sale/manage-token';
import type { LogoTestHost } from './catalog/logo-fetch';
import type { CheckoutService } from './checkout/checkout-service';
import type { CheckoutWatch } from './checkout/checkout-watch';
import type { OrderReconciliation } from './checkout/order-reconciliation';
import type { LoadedConfig } from './config/load-config';
import type { PartnerFunding } from './funding/partner-funding';
import type { AnswerCache } from './http/answer-cache';
import type { AppEnv } from './http/app-env';
import type { Logger } from './logger';
import type { InstallationEmails } from './mail/installation-email-sender';
import type { BffMetrics } from './observability/metrics';
import type { Tracing } from './observability/tracing';
import type { PrivacyErasures, PrivacyErasuresOptions } from './privacy/privacy-erasures';
import type { RemovedWidgets } from './privacy/removed-widgets';
import type { FunnelCounters } from './sales-ledger/funnel-counters';
import type { SessionSigner } from './security/session-token';
import type { IndexBuildCounts } from './store/index-rebuild';
import type { Store } from './store/store';
import type { SupportDesk } from './support-desk/support-desk';
import type { WebhookQueue } from './webhooks/webhook-queue';
import type { WebhookSender } from './webhooks/webhook-sender';
import type { WidgetSalesWatch } from './webhooks/widget-sales-watch';
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
  /** The funnel's counters (the console's charts). */
  funnel: FunnelCounters;
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
