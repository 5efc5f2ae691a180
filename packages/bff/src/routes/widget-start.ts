/**
 * @module
 * `GET /v1/widgets/{widgetId}/start`: what the widget's first screen needs — its public config and the address
 * of its public catalog — with no session, so that a page view costs no token; the session begins at the quote.
 * The `origin` auth (`routes/route-auth.ts`) has refused an unknown or disabled widget and an origin it does
 * not allow, as it does for sessions; a widget that cannot sell is `widget_misconfigured`.
 */
import type { WidgetStart, WidgetStartResponse } from '@esim-embed/shared';
import { ApiError } from '../errors';
import { answerJson, answerMeta, encodedOnce } from '../http/answer';
import { keepAnswer } from '../http/answer-cache';
import type { FunnelCounters } from '../sales-ledger/funnel-counters';
import type { StartLimit } from '../security/start-limit';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { RouteHandlers } from './mount-routes';
import { publicCatalogPath } from './public-catalog';

/**
 * A shared cache keeps one answer per page origin: the answer names that origin in its CORS header, so it varies
 * on `Origin` (and on `Sec-Fetch-Site`, which admits the BFF's own pages without one). The catalog address in it
 * may lag a refresh by these 60 s: the address it names stays valid for what it holds, and a read of a version
 * since replaced is `not_found` naming the current one, which the widget follows.
 */
const START_CACHE = { 'Cache-Control': 'public, max-age=60', Vary: 'Origin, Sec-Fetch-Site' } as const;

/**
 * The widget's start: its public config and current catalog address, or `widget_misconfigured` when it cannot
 * sell as configured (scopes, environment, brand, mTLS): stopped before anyone pays.
 */
export async function widgetStart(widget: WidgetRuntime): Promise<WidgetStart> {
  const config = widget.config;
  const widgetId = config.id;
  await requireFitness(widget);
  const [brand, settlement, catalogVersion] = await Promise.all([
    widget.catalog.brand(),
    widget.catalog.settlement(),
    widget.catalog.version(),
  ]);
  return {
    widget: {
      widgetId,
      environment: config.environment,
      checkoutMode: config.checkoutMode,
      currency: settlement.currency,
      wholeRubOnly: settlement.wholeRubOnly,
      defaultLocale: config.defaultLocale,
      locales: config.locales,
      emailRequired: config.emailRequired,
      emailSender: config.emailSender,
      consent: config.consent,
      deviceCheck: config.deviceCheck,
      brand,
    },
    catalog: { path: publicCatalogPath(widgetId, catalogVersion) },
  };
}

async function requireFitness(widget: WidgetRuntime): Promise<void> {
  if ((await widget.catalog.fitness()).problems.length > 0) {
    throw new ApiError('widget_misconfigured', { params: { widgetId: widget.config.id } });
  }
}

/** The widgets' starts of one app, each built once per catalog state (shared by the start and the session). */
export interface WidgetStarts {
  /**
   * {@link widgetStart}, checked for fitness on every call: the same object while the widget's catalog state
   * is held, so that an answer may encode it once (`encodedOnce`).
   */
  start(widget: WidgetRuntime): Promise<WidgetStart>;
}

/** An app's widget starts, kept per catalog state (a new state's start is built again). */
export function widgetStarts(): WidgetStarts {
  const byState = new WeakMap<object, WidgetStart>();
  return {
    async start(widget) {
      const state = widget.catalog.held();
      const kept = state === undefined ? undefined : byState.get(state);
      if (kept !== undefined) {
        await requireFitness(widget);
        return kept;
      }
      const start = await widgetStart(widget);
      if (state !== undefined && widget.catalog.held() === state) byState.set(state, start);
      return start;
    },
  };
}

/**
 * What a kept start's answer varies on: the page's origin, named in its CORS header. Only a start that carries an
 * `Origin` is kept: with one, the origin alone decides (`requestOrigins`); an own page's start without one is
 * judged by its scheme and host as well, and always goes to the app.
 */
const START_VARIES_ON = ['origin'] as const;

/**
 * The start route (behind the `origin` auth, which found the widget and the origin it allows and counted the
 * start). Its 200 is kept by the answer cache (when the app has one) per origin while the widget's catalog state
 * is held — the state its config, fitness and catalog address come from — so that the next page views of that
 * origin are answered before the app, each counted by `limit` first (one over it goes to the app: `rate_limited`)
 * and, admitted, tallied as a widget opened in the funnel (the app's own starts are tallied by `funnel-steps.ts`).
 */
export function widgetStartHandlers(
  starts: WidgetStarts,
  limit: StartLimit,
  funnel: Pick<FunnelCounters, 'tally'> | undefined,
): RouteHandlers<'startWidget'> {
  return {
    async startWidget(c) {
      const widget = c.get('widget');
      const start = await starts.start(widget);
      const builtFrom = widget.catalog.held();
      if (builtFrom !== undefined && c.req.header('Origin') !== undefined) {
        keepAnswer(c, {
          builtFrom,
          current: () => widget.catalog.held(),
          variesOn: START_VARIES_ON,
          admit(request) {
            if (!limit.take(widget, limit.addressOf(request)).allowed) return false;
            funnel?.tally(widget.config.id, 'widgetOpened');
            return true;
          },
        });
      }
      const meta: WidgetStartResponse['meta'] = answerMeta(c);
      return answerJson(c, { data: encodedOnce(c, start), meta }, 200, START_CACHE);
    },
  };
}
