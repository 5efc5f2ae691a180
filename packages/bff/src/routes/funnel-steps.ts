/**
 * @module
 * Where the funnel's steps are counted, for the steps a widget's requests make (`paid` is counted by the sales
 * ledger as a sale's record is first written): a widget's start answered (`widgetOpened`), a quote asked
 * (`planChosen`: the traveller picked a plan) and made (`quoted`), a checkout made (`checkout`), a partner's
 * payment started (`paymentStarted`), and the installation read (`installed`: the traveller was shown how to
 * install). One counter increment per step, nothing about who; a start, as frequent as page views, is tallied in
 * memory and added to the store in batches (`FunnelCounters.tally`), as is a start the answer cache answers
 * (`widget-start.ts`).
 */
import type { FunnelStep } from '@esim-embed/shared/console';
import type { Context, MiddlewareHandler } from 'hono';
import { plainBodyOf } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import type { FunnelCounters } from '../sales-ledger/funnel-counters';

/** A request that makes a step: its method, path and the status that counts (`any`: asked is enough). */
const STEPS: readonly { method: string; path: RegExp; status: number | 'any'; step: FunnelStep }[] = [
  { method: 'GET', path: /^\/v1\/widgets\/[^/]+\/start$/, status: 200, step: 'widgetOpened' },
  { method: 'POST', path: /^\/v1\/quotes$/, status: 'any', step: 'planChosen' },
  { method: 'POST', path: /^\/v1\/quotes$/, status: 201, step: 'quoted' },
  { method: 'POST', path: /^\/v1\/checkouts$/, status: 201, step: 'checkout' },
  {
    method: 'POST',
    path: /^\/v1\/partner\/checkouts\/[^/]+\/payment-started$/,
    status: 200,
    step: 'paymentStarted',
  },
  { method: 'GET', path: /^\/v1\/checkouts\/[^/]+\/installation$/, status: 200, step: 'installed' },
];

/** The `data.widgetId` of a JSON answer, or null. */
function answeredWidgetId(text: string): string | null {
  try {
    const widgetId: unknown = (JSON.parse(text) as { data?: { widgetId?: unknown } } | null)?.data?.widgetId;
    return typeof widgetId === 'string' ? widgetId : null;
  } catch {
    return null;
  }
}

/** The widget a counted request was for: its session's, its start's, or the partner checkout it answered. */
async function widgetOf(c: Context<AppEnv>): Promise<string | null> {
  const widget = c.get('widget') as AppEnv['Variables']['widget'] | undefined;
  if (widget !== undefined) return widget.config.id;
  const partnerWidgets = c.get('partnerWidgets') as AppEnv['Variables']['partnerWidgets'] | undefined;
  if (partnerWidgets === undefined) return null;
  if (partnerWidgets.size === 1) return [...partnerWidgets.keys()][0] ?? null;
  // The body as written, before the answer was compressed for this client.
  return answeredWidgetId(await plainBodyOf(c, c.res).catch(() => ''));
}

/** Counts the steps the widget API's requests make, once each is answered. */
export function funnelSteps(counters: FunnelCounters): MiddlewareHandler<AppEnv> {
  return async function countFunnelSteps(c, next) {
    await next();
    const { method } = c.req;
    const matched = STEPS.filter(
      (entry) =>
        entry.method === method &&
        entry.path.test(c.req.path) &&
        (entry.status === 'any' ? c.get('widget') !== undefined : entry.status === c.res.status),
    );
    if (matched.length === 0) return;
    const widgetId = await widgetOf(c);
    if (widgetId === null) return;
    await Promise.all(
      matched.map(async (entry) =>
        entry.step === 'widgetOpened'
          ? counters.tally(widgetId, entry.step)
          : await counters.count(widgetId, entry.step),
      ),
    );
  };
}
