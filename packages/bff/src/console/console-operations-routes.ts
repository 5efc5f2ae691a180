/**
 * @module
 * The console's views of the partner's operations — webhooks' health (endpoint, circuit, deliveries failing),
 * money (each widget's account as the funding check sees it), sales per day (from the sales ledger, which keeps
 * no personal data) and the funnel (from its counters) — and support's resends: one delivery, or every failed
 * one since a time. Reads and resends go through the same desks as the partner API's.
 */
import { type PartnerSale, salePeriodMs } from '@esim-embed/shared';
import {
  type ConsoleMoney,
  ConsolePeriodQuerySchema,
  type FunnelDay,
  ResendFailedDeliveriesRequestSchema,
  type SalesDay,
  type WidgetWebhooksHealth,
} from '@esim-embed/shared/console';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import type { PartnerFunding } from '../funding/partner-funding';
import { answerJson } from '../http/answer';
import { parseOrThrow, readJsonBody } from '../http/json-body';
import { daysBetween, type FunnelCounters, utcDay } from '../sales-ledger/funnel-counters';
import { EXPORT_PAGE_SIZE } from '../sales-ledger/sales-csv';
import type { SalesDesk } from '../sales-ledger/sales-desk';
import type { ListPosition } from '../store/index-pages';
import type { Store } from '../store/store';
import { webhookCircuit } from '../webhooks/webhook-circuit';
import type { WebhookDeliveryDesk } from '../webhooks/webhook-delivery-desk';
import type { ConsoleAudit } from './console-audit';
import type { ConsoleEnv } from './console-auth';
import { type ConsoleHandlers, consoleMeta, NO_STORE } from './console-route-table';
import { searchedWidgets } from './console-sale-routes';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A chart's period unless the query names one: the last 30 days. */
const DEFAULT_DAYS = 30;
/** The longest funnel a request reads (each day is 7 counters per widget). */
const MAX_FUNNEL_DAYS = 92;
/** The most sales a chart adds up; a longer period is refused with a hint to narrow it. */
const MAX_CHARTED_SALES = 50_000;
/** The failing deliveries a widget's health lists, and the most one resend of failures sends. */
const FAILING_LISTED = 50;
const MAX_RESENT = 500;

export interface ConsoleOperationsRoutesOptions {
  store: Store;
  funding: PartnerFunding;
  webhookDesk: WebhookDeliveryDesk;
  salesDesk: SalesDesk;
  funnel: FunnelCounters;
  audit: ConsoleAudit;
  now: () => number;
}

/** The operations routes. */
export function consoleOperationsHandlers(
  options: ConsoleOperationsRoutesOptions,
): ConsoleHandlers<
  | 'readWebhooksHealth'
  | 'readMoney'
  | 'readSalesChart'
  | 'readFunnelChart'
  | 'resendWebhookDelivery'
  | 'resendFailedWebhookDeliveries'
> {
  /** A chart's period in milliseconds (`to` exclusive): the query's, or the last 30 days up to now. */
  function chartPeriod(c: Context<ConsoleEnv>) {
    const query = parseOrThrow(ConsolePeriodQuerySchema, c.req.query(), 400, 'query');
    const given = salePeriodMs(query);
    const toMs = given.toMs ?? options.now();
    const fromMs = given.fromMs ?? toMs - DEFAULT_DAYS * DAY_MS;
    if (!(fromMs < toMs))
      throw new ApiError('validation_failed', {
        status: 400,
        params: { field: 'to', reason: 'before_from' },
      });
    return { fromMs, toMs, widgets: searchedWidgets(c.get('consoleCaller'), query.widgetId) };
  }

  async function readWebhooksHealth(c: Context<ConsoleEnv>) {
    const { partner } = c.get('consoleCaller');
    const now = options.now();
    const widgets = await Promise.all(
      [...partner.widgets.values()].map(async (widget): Promise<WidgetWebhooksHealth> => {
        const id = widget.config.id;
        const [circuit, failed, paused] = await Promise.all([
          webhookCircuit(options.store, id),
          options.webhookDesk.list([id], { status: 'failed' }, null, FAILING_LISTED),
          options.webhookDesk.list([id], { status: 'paused' }, null, FAILING_LISTED),
        ]);
        const open = circuit !== null && circuit.untilMs > now;
        const failing = [...paused.items, ...failed.items]
          .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
          .slice(0, FAILING_LISTED);
        return {
          widgetId: id,
          endpoint: widget.config.webhookUrl ?? null,
          circuit: {
            state: open ? 'open' : 'closed',
            consecutiveFailures: circuit?.failures ?? 0,
            pausedUntil: open ? new Date(circuit.untilMs).toISOString() : null,
          },
          failing,
        };
      }),
    );
    return answerJson(c, { data: { widgets }, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function readMoney(c: Context<ConsoleEnv>) {
    const { partner } = c.get('consoleCaller');
    const widgets: ConsoleMoney['widgets'] = await Promise.all(
      [...partner.widgets.values()].map(async (widget) => {
        try {
          return {
            widgetId: widget.config.id,
            account: await options.funding.account(widget),
            unavailable: null,
          };
        } catch (error) {
          // One account the upstream does not answer for leaves the others shown.
          if (!(error instanceof ApiError)) throw error;
          return { widgetId: widget.config.id, account: null, unavailable: error.code };
        }
      }),
    );
    return answerJson(c, { data: { widgets }, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function readSalesChart(c: Context<ConsoleEnv>) {
    const { fromMs, toMs, widgets } = chartPeriod(c);
    const days = new Map<string, SalesDay>();
    let after: ListPosition | null = null;
    let read = 0;
    do {
      const page: { items: PartnerSale[]; next: ListPosition | null } = await options.salesDesk.list(
        [...widgets.keys()],
        { fromMs, toMs },
        { after, limit: EXPORT_PAGE_SIZE },
      );
      for (const sale of page.items) {
        const day = utcDay(Date.parse(sale.paidAt));
        const key = `${day} ${sale.widgetId} ${sale.amount.currency}`;
        const entry = days.get(key) ?? {
          day,
          widgetId: sale.widgetId,
          currency: sale.amount.currency,
          count: 0,
          revenueMinor: 0,
          marginMinor: 0,
        };
        // A failed sale's money goes back: it is counted as a sale of nothing.
        const earned = sale.status === 'failed' || sale.status === 'refunded' ? 0 : sale.amount.amountMinor;
        const cost =
          earned === 0 || sale.wholesale === null || sale.wholesale.currency !== sale.amount.currency
            ? earned
            : sale.wholesale.amountMinor;
        entry.count += 1;
        entry.revenueMinor += earned;
        entry.marginMinor += earned - cost;
        days.set(key, entry);
      }
      read += page.items.length;
      if (read > MAX_CHARTED_SALES) {
        throw new ApiError('validation_failed', {
          status: 400,
          params: { field: 'from', reason: 'period_too_long' },
        });
      }
      after = page.next;
    } while (after !== null);
    const sorted = [...days.values()].sort(
      (a, b) => a.day.localeCompare(b.day) || a.widgetId.localeCompare(b.widgetId),
    );
    return answerJson(c, { data: { days: sorted }, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function readFunnelChart(c: Context<ConsoleEnv>) {
    const { fromMs, toMs, widgets } = chartPeriod(c);
    const fromDay = utcDay(fromMs);
    const toDay = utcDay(toMs - 1);
    if (daysBetween(fromDay, toDay).length > MAX_FUNNEL_DAYS) {
      throw new ApiError('validation_failed', {
        status: 400,
        params: { field: 'from', reason: 'period_too_long', maxDays: MAX_FUNNEL_DAYS },
      });
    }
    const days: FunnelDay[] = await options.funnel.read([...widgets.keys()], fromDay, toDay);
    days.sort((a, b) => a.day.localeCompare(b.day) || a.widgetId.localeCompare(b.widgetId));
    return answerJson(c, { data: { days }, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function resendWebhookDelivery(c: Context<ConsoleEnv>) {
    await readJsonBody(c, ResendFailedDeliveriesRequestSchema.pick({}));
    const { partner } = c.get('consoleCaller');
    const id = c.req.param('id') ?? '';
    const { resent, delivery } = await options.webhookDesk.resend(new Set(partner.widgets.keys()), id);
    if (resent)
      await options.audit.recordBy(c.get('consoleCaller'), 'webhook_delivery_resent', {
        deliveryId: delivery.id,
        widgetId: delivery.widgetId,
      });
    // The list's shape: the event (with the traveller's address) stays on the partner API's detail read.
    const { event: _event, ...listed } = delivery;
    return answerJson(c, { data: listed, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function resendFailedWebhookDeliveries(c: Context<ConsoleEnv>) {
    const body = await readJsonBody(c, ResendFailedDeliveriesRequestSchema);
    const caller = c.get('consoleCaller');
    const widgets = searchedWidgets(caller, body.widgetId);
    const sinceMs = Date.parse(body.since);
    const own = new Set(widgets.keys());
    let resent = 0;
    let after: ListPosition | null = null;
    // Newest first: the walk stops at the first delivery made before `since`.
    walk: do {
      const page = await options.webhookDesk.list([...own], { status: 'failed' }, after, 100);
      for (const delivery of page.items) {
        if (Date.parse(delivery.createdAt) < sinceMs || resent >= MAX_RESENT) break walk;
        if ((await options.webhookDesk.resend(own, delivery.id)).resent) resent += 1;
      }
      after = page.next;
    } while (after !== null);
    await options.audit.recordBy(
      c.get('consoleCaller'),
      'failed_webhook_deliveries_resent',
      body.widgetId === undefined ? {} : { widgetId: body.widgetId },
      {
        since: body.since,
        resent,
      },
    );
    return answerJson(c, { data: { resent }, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  return {
    readWebhooksHealth,
    readMoney,
    readSalesChart,
    readFunnelChart,
    resendWebhookDelivery,
    resendFailedWebhookDeliveries,
  };
}
