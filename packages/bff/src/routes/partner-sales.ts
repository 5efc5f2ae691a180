/**
 * @module
 * The partner's sales ledger over HTTP: `GET /v1/partner/sales` (newest paid first, a period, a widget, an eSIM or
 * a payment reference; paged by cursor as every list), `GET /v1/partner/sales/{checkoutId}` and
 * `GET /v1/partner/sales.csv` (a period for accounting, streamed). Behind the partner auth: only the sales of the
 * widgets the partner secret opens.
 */
import {
  API_VERSION,
  PartnerSaleExportQuerySchema,
  PartnerSaleListQuerySchema,
  salePeriodMs,
} from '@esim-embed/shared';
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { answerJson } from '../http/answer';
import type { AppEnv } from '../http/app-env';
import { parseOrThrow } from '../http/json-body';
import { answerPageAfter } from '../http/list-page';
import { salesCsvAnswer } from '../sales-ledger/sales-csv';
import type { SalesDesk } from '../sales-ledger/sales-desk';
import type { RouteHandlers } from './mount-routes';
import { isCheckoutId } from './partner';
import { cursorBinding, listedWidgets } from './partner-desk';

export interface PartnerSalesRoutesOptions {
  salesDesk: SalesDesk;
}

/** The sales ledger's routes. */
export function partnerSalesHandlers(
  options: PartnerSalesRoutesOptions,
): RouteHandlers<'listPartnerSales' | 'readPartnerSale' | 'exportPartnerSales'> {
  const { salesDesk } = options;

  async function listPartnerSales(c: Context<AppEnv>) {
    const { limit, cursor, widgetId, from, to, ...filters } = parseOrThrow(
      PartnerSaleListQuerySchema,
      c.req.query(),
      400,
      'query',
    );
    const widgetIds = listedWidgets(c, widgetId);
    const binding = cursorBinding(c, `sales ${JSON.stringify({ widgetId, from, to, ...filters })}`);
    return answerPageAfter(c, binding, cursor, (after) =>
      salesDesk.list(widgetIds, { ...filters, ...salePeriodMs({ from, to }) }, { after, limit }),
    );
  }

  async function readPartnerSale(c: Context<AppEnv>) {
    const checkoutId = c.req.param('checkoutId') ?? '';
    // Another partner's sale reads as none at all, as an unknown checkout does.
    const sale = isCheckoutId(checkoutId)
      ? await salesDesk.read([...c.get('partnerWidgets').keys()], checkoutId)
      : null;
    if (sale === null) throw new ApiError('checkout_not_found');
    return answerJson(
      c,
      { data: sale, meta: { requestId: c.get('requestId'), apiVersion: API_VERSION } },
      200,
      {
        'Cache-Control': 'no-store',
      },
    );
  }

  async function exportPartnerSales(c: Context<AppEnv>) {
    const { widgetId, from, to } = parseOrThrow(PartnerSaleExportQuerySchema, c.req.query(), 400, 'query');
    return salesCsvAnswer(salesDesk, listedWidgets(c, widgetId), { from, to });
  }

  return { listPartnerSales, readPartnerSale, exportPartnerSales };
}
