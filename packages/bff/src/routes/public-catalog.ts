/**
 * @module
 * The catalog under public, immutable, versioned addresses that any CDN or reverse proxy may keep:
 * `GET /v1/catalog/{widgetId}/{version}/{locale}/destinations` and `…/plans/{code}` answer what the session
 * routes answer. `version` names one catalog snapshot under one pricing, so an address never changes meaning;
 * a version no longer held is `not_found` (never stored by a cache) naming the current one and its address, and
 * `GET /v1/catalog/{widgetId}` names the current one for a few seconds. A retail catalog is public, so no session, origin or secret is asked here; the
 * quote still needs a session.
 */
import { API_VERSION, type Locale, LocaleSchema } from '@esim-embed/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import { addAnswerHeaders, answerJson } from '../http/answer';
import { keepAnswer } from '../http/answer-cache';
import type { AppEnv } from '../http/app-env';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { destinationsAnswer, plansAnswer } from './catalog';
import type { RouteHandlers } from './mount-routes';

/** Any page may read a public catalog; nothing of the reader's is sent or kept. */
const OPEN = { 'Access-Control-Allow-Origin': '*' } as const;
/** A versioned address never changes meaning. */
const IMMUTABLE = { ...OPEN, 'Cache-Control': 'public, max-age=31536000, immutable' } as const;
/** The name of the current version moves with each catalog refresh. */
const CURRENT = { ...OPEN, 'Cache-Control': 'public, max-age=10' } as const;

/** The address of a widget's catalog at one version (what a session hands the widget). */
export function publicCatalogPath(widgetId: string, version: string): string {
  return `/v1/catalog/${encodeURIComponent(widgetId)}/${encodeURIComponent(version)}`;
}

export interface PublicCatalogRoutesOptions {
  widgets: ReadonlyMap<string, WidgetRuntime>;
}

/** Makes every answer under `/v1/catalog/`, refusals too, readable by any page (errors answer `no-store`). */
export const openToAnyPage: MiddlewareHandler<AppEnv> = async function openToAnyPage(c, next) {
  addAnswerHeaders(c, OPEN);
  await next();
};

/** The public catalog routes (no session). */
export function publicCatalogHandlers(
  options: PublicCatalogRoutesOptions,
): RouteHandlers<'currentCatalog' | 'publicDestinations' | 'publicPlans'> {
  /** The enabled widget of the path, or `not_found`. */
  function widgetOf(c: Context<AppEnv>): WidgetRuntime {
    const widget = options.widgets.get(c.req.param('widgetId') ?? '');
    if (widget === undefined || !widget.config.enabled) throw new ApiError('not_found');
    return widget;
  }

  /** The widget, checked to still hold `version`, and the locale of the path. */
  async function held(c: Context<AppEnv>): Promise<{ widget: WidgetRuntime; locale: Locale }> {
    const widget = widgetOf(c);
    const locale = LocaleSchema.safeParse(c.req.param('locale'));
    if (!locale.success || !widget.config.locales.includes(locale.data)) {
      throw new ApiError('not_found', { params: { field: 'locale' } });
    }
    const current = await widget.catalog.version();
    if (c.req.param('version') !== current) {
      const path = publicCatalogPath(widget.config.id, current);
      throw new ApiError('not_found', { params: { reason: 'catalog_version_gone', current, path } });
    }
    return { widget, locale: locale.data };
  }

  async function currentCatalog(c: Context<AppEnv>) {
    const widget = widgetOf(c);
    const version = await widget.catalog.version();
    const data = {
      version,
      path: publicCatalogPath(widget.config.id, version),
      locales: widget.config.locales,
    };
    return answerJson(
      c,
      { data, meta: { requestId: c.get('requestId'), apiVersion: API_VERSION } },
      200,
      CURRENT,
    );
  }

  /**
   * Asks the answer cache (when the app has one) to keep this read's 200, valid while the catalog state it is
   * built from is held: the versioned address answers the same to every reader until then.
   */
  function keepWhileHeld(c: Context<AppEnv>, widget: WidgetRuntime, rest: string): void {
    // Only a read at the canonical address is kept: spellings of it (`/plans/tr`, `/e%6E/…`) answer the same but
    // are not kept, so one client cannot fill the cache with variants that each cost a compression.
    const canonical = `${publicCatalogPath(widget.config.id, c.req.param('version') ?? '')}/${rest}`;
    if (new URL(c.req.url).pathname !== canonical) return;
    const builtFrom = widget.catalog.held();
    if (builtFrom !== undefined) keepAnswer(c, { builtFrom, current: () => widget.catalog.held() });
  }

  async function publicDestinations(c: Context<AppEnv>) {
    const { widget, locale } = await held(c);
    keepWhileHeld(c, widget, `${locale}/destinations`);
    return await destinationsAnswer(c, widget, locale, IMMUTABLE);
  }

  async function publicPlans(c: Context<AppEnv>) {
    const { widget, locale } = await held(c);
    keepWhileHeld(
      c,
      widget,
      `${locale}/plans/${encodeURIComponent((c.req.param('code') ?? '').toUpperCase())}`,
    );
    return await plansAnswer(c, widget, locale, IMMUTABLE);
  }

  return { currentCatalog, publicDestinations, publicPlans };
}
