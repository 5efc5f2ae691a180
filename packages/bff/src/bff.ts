/**
 * @module
 * The composition root: from a loaded config to a running BFF — one upstream client and one catalog
 * service per widget, the store, the session signer, the checkout service and the app.
 */
import type { Hono } from 'hono';
import { createBffApp } from './app';
import { createCatalogService } from './catalog/catalog-service';
import { createCheckoutSecrets } from './checkout/checkout-access';
import { type CheckoutService, createCheckoutService } from './checkout/checkout-service';
import type { LoadedConfig } from './config/load-config';
import type { AppEnv } from './http/app-env';
import { requestScopedLogger } from './http/request-context';
import type { Logger } from './logger';
import { createOriginPolicy } from './security/origin-policy';
import { createSessionSigner, type SessionSigner } from './security/session-token';
import { createMemoryStore } from './store/memory-store';
import type { Store } from './store/store';
import { createUpstreamClient } from './upstream/upstream-client';
import type { WidgetRuntime } from './widgets/widget-runtime';

export interface CreateBffOptions {
  loaded: LoadedConfig;
  logger: Logger;
  /** Default: the memory store. */
  store?: Store;
  widgetDist?: string | null;
  siteRoot?: string | null;
  extraRoutes?: Hono<AppEnv>;
  /** Start the catalogs' background refresh at once (default true). */
  startCatalogs?: boolean;
  /** The BFF's public origin, for same-origin brand logos. */
  publicOrigin?: string;
}

/** A BFF ready to serve: its app and what must be closed after it. */
export interface Bff {
  app: Hono<AppEnv>;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  store: Store;
  signer: SessionSigner;
  checkouts: CheckoutService;
  close(): Promise<void>;
}

/** Build the BFF from a loaded config. */
export function createBff(options: CreateBffOptions): Bff {
  const { loaded, logger } = options;
  const { config } = loaded;
  const scopedLogger = requestScopedLogger(logger);
  const store = options.store ?? createMemoryStore();
  const widgets = new Map<string, WidgetRuntime>();
  for (const widgetConfig of config.widgets) {
    const secrets = loaded.secrets.get(widgetConfig.id);
    if (secrets === undefined) throw new Error(`no secrets were resolved for widget ${widgetConfig.id}`);
    const widgetLogger = scopedLogger.child({ widgetId: widgetConfig.id });
    const upstream = createUpstreamClient({
      baseUrl: widgetConfig.upstream.baseUrl,
      apiKey: secrets.apiKey,
      timeoutMs: widgetConfig.upstream.timeoutMs,
      maxRetries: widgetConfig.upstream.maxRetries,
      logger: widgetLogger,
    });
    const catalog = createCatalogService({
      upstream,
      pricing: widgetConfig.pricing,
      brandOverrides: widgetConfig.brand,
      displayName: widgetConfig.displayName,
      publicOrigin: options.publicOrigin,
      logger: widgetLogger,
      refreshIntervalMs: config.catalogRefreshSeconds * 1000,
    });
    widgets.set(widgetConfig.id, {
      config: widgetConfig,
      partnerSecret: secrets.partnerSecret,
      originPolicy: createOriginPolicy(widgetConfig.allowedOrigins),
      upstream,
      catalog,
    });
  }
  const signer = createSessionSigner({ secret: loaded.sessionSecret, ttlSeconds: config.sessionTtlSeconds });
  const checkouts = createCheckoutService({
    store,
    logger: scopedLogger,
    secrets: createCheckoutSecrets(loaded.sessionSecret),
    statusCacheMs: config.statusCacheMs,
  });
  const app = createBffApp({
    config,
    widgets,
    store,
    signer,
    checkouts,
    logger,
    widgetDist: options.widgetDist,
    siteRoot: options.siteRoot,
    extraRoutes: options.extraRoutes,
    publicOrigin: options.publicOrigin,
  });
  if (options.startCatalogs !== false) for (const widget of widgets.values()) widget.catalog.start();
  return {
    app,
    widgets,
    store,
    signer,
    checkouts,
    async close() {
      checkouts.close();
      for (const widget of widgets.values()) widget.catalog.close();
      await Promise.all([...widgets.values()].map((widget) => widget.upstream.close()));
      await store.close();
    },
  };
}
