/**
 * @module
 * The catalog feature: every configured widget at run time — one upstream client per widget (behind one budget
 * per upstream key, shared by the widgets on it), its account logo and its catalog service, whose background
 * refresh is this feature's work.
 */
import type { BackgroundWork } from '../background-stop';
import { createAccountLogo } from '../catalog/account-logo';
import { createCatalogService } from '../catalog/catalog-service';
import type { LogoTestHost } from '../catalog/logo-fetch';
import type { WidgetConfig } from '../config/config-schema';
import type { LoadedConfig } from '../config/load-config';
import type { Logger } from '../logger';
import { createOriginPolicy } from '../security/origin-policy';
import type { Store } from '../store/store';
import type { OutgoingCalls } from '../upstream/outgoing-call-observer';
import { createUpstreamBudget, type UpstreamBudget } from '../upstream/upstream-budget';
import { createUpstreamClient, upstreamCredential } from '../upstream/upstream-client';
import type { WidgetRuntime } from './widget-runtime';

export interface WidgetsFeatureOptions {
  loaded: LoadedConfig;
  store: Store;
  logger: Logger;
  /** Told of each upstream attempt (the metrics and tracing, when on). */
  observer: OutgoingCalls | undefined;
  /** Counts a call the upstream budget refused, by the share it exhausted (the metrics, when on). */
  onBudgetRefusal: ((share: string) => void) | undefined;
  /** The BFF's public origin, for same-origin brand logos and the account's logo. */
  publicOrigin?: string | undefined;
  /** Tests only: a local HTTPS image host the account-logo fetch may reach. */
  logoTestHost?: LogoTestHost | undefined;
  /** How the upstream clients wait out a pause between attempts (tests move a clock). */
  upstreamSleep?: ((ms: number) => Promise<void>) | undefined;
  /** The budgets' clock (a 429's pause). */
  now?: (() => number) | undefined;
}

export interface WidgetsFeature {
  /** Every widget by id. */
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The catalogs' background refresh, one per widget. */
  background: BackgroundWork[];
}

/** One budget per upstream key, shared by the widgets that use the key (several partners' widgets may). */
function upstreamBudgets(options: WidgetsFeatureOptions): ReadonlyMap<string, UpstreamBudget> {
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
        store: options.store,
        credential,
        configuredLimit: configured.length > 0 ? Math.min(...configured) : undefined,
        widgetsOnKey: sharing.length,
        percents: config.upstreamBudget,
        logger: options.logger.child({ widgetIds: sharing.map((widget) => widget.id) }),
        onRefusal: options.onBudgetRefusal,
        now: options.now,
      }),
    );
  }
  return budgets;
}

/** Every configured widget's runtime, from the loaded config and its secrets. */
export function createWidgetsFeature(options: WidgetsFeatureOptions): WidgetsFeature {
  const { loaded, logger } = options;
  const widgets = new Map<string, WidgetRuntime>();
  const budgets = upstreamBudgets(options);
  for (const widgetConfig of loaded.config.widgets) {
    const secrets = loaded.secrets.get(widgetConfig.id);
    if (secrets === undefined) throw new Error(`no secrets were resolved for widget ${widgetConfig.id}`);
    const widgetLogger = logger.child({ widgetId: widgetConfig.id });
    const budget = budgets.get(upstreamCredential(widgetConfig.upstream.baseUrl, secrets.apiKey));
    const upstream = createUpstreamClient({
      baseUrl: widgetConfig.upstream.baseUrl,
      apiKey: secrets.apiKey,
      tls: secrets.upstreamTls,
      timeoutMs: widgetConfig.upstream.timeoutMs,
      maxRetries: widgetConfig.upstream.maxRetries,
      logger: widgetLogger,
      observer: options.observer,
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
      refreshIntervalMs: loaded.config.catalogRefreshSeconds * 1000,
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
  const background = [...widgets].map(([id, widget]) => ({
    name: `catalog refresh of ${id}`,
    start: () => widget.catalog.start(),
    close: () => widget.catalog.close(),
  }));
  return { widgets, background };
}
