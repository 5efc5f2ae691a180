/**
 * @module
 * The console's sale routes: the search (one box or the partner API's filters, newest first, by cursor), a sale's
 * page, the period's CSV, and what support does for a sale — a help request (cancellation, refund, reissue), a
 * delivery link, a manage link — and an admin's erasure of its traveller. Each calls the service the partner route
 * of the same act calls, over the caller's partner's widgets only: another partner's sale is an unknown checkout.
 */
import {
  CreateActionRequestSchema,
  CreatePartnerDeliveryLinkRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKeySchema,
  type PartnerCheckout,
  PartnerSaleExportQuerySchema,
} from '@esim-embed/shared';
import {
  ConsoleCheckoutIdSchema,
  type ConsoleSalePage,
  ConsoleSalesQuerySchema,
} from '@esim-embed/shared/console';
import type { Context } from 'hono';
import { listActionRequests } from '../after-sale/action-request-desk';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import type { CheckoutService } from '../checkout/checkout-service';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import { parseOrThrow, readJsonBody } from '../http/json-body';
import { answerPageAfter } from '../http/list-page';
import { newErasureId, type PrivacyErasures } from '../privacy/privacy-erasures';
import { salesCsvAnswer } from '../sales-ledger/sales-csv';
import type { SalesDesk } from '../sales-ledger/sales-desk';
import { randomBase64url } from '../security/random-ids';
import type { ListPage } from '../store/index-pages';
import type { Store } from '../store/store';
import type { CheckoutFilters, SupportDesk } from '../support-desk/support-desk';
import type { WebhookDeliveryDesk } from '../webhooks/webhook-delivery-desk';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { ConsoleAudit } from './console-audit';
import type { ConsoleCaller, ConsoleEnv } from './console-auth';
import { consoleCursor } from './console-cursors';
import { type ConsoleHandlers, consoleMeta, NO_STORE } from './console-route-table';
import { saleTimeline } from './sale-timeline';

/** The most deliveries and help requests a sale's page lists (the newest). */
const LISTED_ON_A_PAGE = 50;

export interface ConsoleSaleRoutesOptions {
  store: Store;
  checkouts: CheckoutService;
  supportDesk: SupportDesk;
  salesDesk: SalesDesk;
  webhookDesk: WebhookDeliveryDesk;
  afterSale: AfterSaleService;
  esimOwners: EsimOwners;
  privacyErasures: PrivacyErasures;
  audit: ConsoleAudit;
  cursorKey: string;
  now: () => number;
}

/** The widgets a search reads: the partner's, or the one `widgetId` names (`validation_failed` if not theirs). */
export function searchedWidgets(
  caller: ConsoleCaller,
  widgetId: string | undefined,
): ReadonlyMap<string, WidgetRuntime> {
  const { widgets } = caller.partner;
  if (widgetId === undefined) return widgets;
  const widget = widgets.get(widgetId);
  if (widget === undefined)
    throw new ApiError('validation_failed', { params: { field: 'widgetId', reason: 'unknown' } });
  return new Map([[widgetId, widget]]);
}

/** What one search box holds, as the partner API's filters name it. */
function filtersOfBox(q: string): { checkoutId?: string; email?: string; esimOrReference?: string } {
  if (q.includes('@')) return { email: q };
  if (ConsoleCheckoutIdSchema.safeParse(q).success) return { checkoutId: q };
  return { esimOrReference: q };
}

/** The sale routes. */
export function consoleSaleHandlers(
  options: ConsoleSaleRoutesOptions,
): ConsoleHandlers<
  | 'searchSales'
  | 'exportSales'
  | 'readSale'
  | 'requestHelp'
  | 'createDeliveryLink'
  | 'createManageLink'
  | 'eraseTraveller'
> {
  /** The caller's checkout of the path (`checkout_not_found` for any other: nothing to probe). */
  async function checkoutOfPath(c: Context<ConsoleEnv>): Promise<PartnerCheckout> {
    const id = ConsoleCheckoutIdSchema.safeParse(c.req.param('checkoutId'));
    if (!id.success) throw new ApiError('checkout_not_found');
    return await options.checkouts.partnerRead(c.get('consoleCaller').partner.widgets, id.data);
  }

  /** The eSIM of the path's checkout and the caller's widget that sold it (`esim_not_found` before one exists). */
  async function esimOfPath(c: Context<ConsoleEnv>) {
    const checkout = await checkoutOfPath(c);
    const esimId = checkout.esimId ?? null;
    if (esimId === null) throw new ApiError('esim_not_found', { params: { checkoutId: checkout.id } });
    const widget = await options.esimOwners.sellerAmong(c.get('consoleCaller').partner.widgets, esimId);
    return { checkout, esimId, widget };
  }

  /** The page's own key, when it sends one (a double click asks once); a fresh one otherwise. */
  function idempotencyKey(c: Context<ConsoleEnv>): string {
    const given = c.req.header(IDEMPOTENCY_KEY_HEADER);
    if (given === undefined) return `console-${randomBase64url(16)}`;
    const parsed = IdempotencyKeySchema.safeParse(given);
    if (!parsed.success) {
      throw new ApiError('validation_failed', { status: 400, params: { field: IDEMPOTENCY_KEY_HEADER } });
    }
    // Scoped to the console, so that a key never meets one the partner's server sent.
    return `console:${c.get('consoleCaller').partner.id}:${parsed.data}`.slice(0, 255);
  }

  async function searchSales(c: Context<ConsoleEnv>) {
    const { limit, cursor, q, checkoutId, widgetId, ...filters } = parseOrThrow(
      ConsoleSalesQuerySchema,
      c.req.query(),
      400,
      'query',
    );
    const caller = c.get('consoleCaller');
    const widgets = searchedWidgets(caller, widgetId);
    const box = q === undefined ? {} : filtersOfBox(q);
    const oneCheckout = checkoutId ?? box.checkoutId;
    const binding = consoleCursor(
      options.cursorKey,
      caller.partner,
      `sales ${JSON.stringify({ q, checkoutId, widgetId, ...filters })}`,
    );
    if (oneCheckout !== undefined) {
      // A checkout id names one sale: read it (another partner's is simply not found).
      const found = await options.checkouts.partnerRead(widgets, oneCheckout).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'checkout_not_found') return null;
        throw error;
      });
      return answerPageAfter(c, binding, cursor, async () => ({
        items: found === null ? [] : [found],
        next: null,
      }));
    }
    const list =
      (searched: CheckoutFilters) => (after: Parameters<SupportDesk['listCheckouts']>[2]['after']) =>
        options.supportDesk.listCheckouts(widgets, searched, { after, limit });
    if (box.email !== undefined)
      return answerPageAfter(c, binding, cursor, list({ ...filters, email: box.email }));
    if (box.esimOrReference !== undefined) {
      const value = box.esimOrReference;
      // An eSIM id and a payment reference look alike: the eSIM's checkouts, else the reference's (a page of the
      // reference's continues there: the eSIM's list has nothing after its position).
      return answerPageAfter(c, binding, cursor, async (after): Promise<ListPage<PartnerCheckout>> => {
        const byEsim = await list({ ...filters, esimId: value })(after);
        if (byEsim.items.length > 0) return byEsim;
        return await list({ ...filters, paymentReference: value })(after);
      });
    }
    return answerPageAfter(c, binding, cursor, list(filters));
  }

  async function exportSales(c: Context<ConsoleEnv>) {
    const { widgetId, from, to } = parseOrThrow(PartnerSaleExportQuerySchema, c.req.query(), 400, 'query');
    const widgetIds = [...searchedWidgets(c.get('consoleCaller'), widgetId).keys()];
    return salesCsvAnswer(options.salesDesk, widgetIds, { from, to });
  }

  async function readSale(c: Context<ConsoleEnv>) {
    const { partner } = c.get('consoleCaller');
    const checkout = await checkoutOfPath(c);
    const widgetIds = [...partner.widgets.keys()];
    const esimId = checkout.esimId ?? null;
    const [deliveries, helpRequests, sale] = await Promise.all([
      options.webhookDesk.list(widgetIds, { checkoutId: checkout.id }, null, LISTED_ON_A_PAGE),
      esimId === null
        ? Promise.resolve({ items: [] })
        : listActionRequests(options.store, widgetIds, { esimId }, null, LISTED_ON_A_PAGE),
      options.salesDesk.read(widgetIds, checkout.id),
    ]);
    let esim: ConsoleSalePage['esim'] = null;
    let esimUnavailable: string | null = null;
    const widget = partner.widgets.get(checkout.widgetId);
    if (esimId !== null && widget !== undefined) {
      // The usage is the upstream's: a page still shows the sale when the upstream does not answer.
      esim = await options.afterSale.partnerEsim(widget, esimId).catch((error: unknown) => {
        esimUnavailable = error instanceof ApiError ? error.code : 'internal';
        return null;
      });
    }
    const page: ConsoleSalePage = {
      checkout,
      timeline: saleTimeline({
        checkout,
        sale,
        webhookDeliveries: deliveries.items,
        helpRequests: helpRequests.items,
      }),
      webhookDeliveries: deliveries.items,
      helpRequests: helpRequests.items,
      sale,
      esim,
      esimUnavailable,
    };
    return answerJson(c, { data: page, meta: consoleMeta(c) }, 200, NO_STORE);
  }

  async function requestHelp(c: Context<ConsoleEnv>) {
    const body = await readJsonBody(c, CreateActionRequestSchema);
    const { checkout, esimId, widget } = await esimOfPath(c);
    const request = await options.afterSale.requestAction(widget, esimId, body, idempotencyKey(c));
    await options.audit.recordBy(
      c.get('consoleCaller'),
      'help_request_made',
      { checkoutId: checkout.id, esimId, actionRequestId: request.id },
      { type: request.type, reason: body.reasonCode },
    );
    return answerJson(c, { data: request, meta: consoleMeta(c) }, 201, NO_STORE);
  }

  async function createDeliveryLink(c: Context<ConsoleEnv>) {
    const body = await readJsonBody(c, CreatePartnerDeliveryLinkRequestSchema);
    const { checkout, esimId, widget } = await esimOfPath(c);
    const link = await options.afterSale.createDeliveryLink(widget, esimId, body, idempotencyKey(c));
    await options.esimOwners.recordLink(link.id, widget.config.id);
    // The link's url is a bearer secret: its id goes into the log, never the url.
    await options.audit.recordBy(c.get('consoleCaller'), 'delivery_link_made', {
      checkoutId: checkout.id,
      esimId,
      deliveryLinkId: link.id,
    });
    return answerJson(c, { data: link, meta: consoleMeta(c) }, 201, NO_STORE);
  }

  async function createManageLink(c: Context<ConsoleEnv>) {
    await readJsonBody(c, CreateActionRequestSchema.pick({}));
    const { checkout, esimId, widget } = await esimOfPath(c);
    const link = await options.afterSale.manageLinkForPartner(widget, esimId);
    await options.audit.recordBy(c.get('consoleCaller'), 'manage_link_made', {
      checkoutId: checkout.id,
      esimId,
      manageLinkId: link.id,
    });
    return answerJson(c, { data: link, meta: consoleMeta(c) }, 201, NO_STORE);
  }

  async function eraseTraveller(c: Context<ConsoleEnv>) {
    await readJsonBody(c, CreateActionRequestSchema.pick({}));
    const checkout = await checkoutOfPath(c);
    const receipt = await options.privacyErasures.request(
      c.get('consoleCaller').partner.widgets,
      { checkoutId: checkout.id },
      newErasureId(),
    );
    await options.audit.recordBy(c.get('consoleCaller'), 'traveller_erased', {
      checkoutId: checkout.id,
      erasureId: receipt.id,
    });
    return answerJson(c, { data: receipt, meta: consoleMeta(c) }, 202, NO_STORE);
  }

  return {
    searchSales,
    exportSales,
    readSale,
    requestHelp,
    createDeliveryLink,
    createManageLink,
    eraseTraveller,
  };
}
