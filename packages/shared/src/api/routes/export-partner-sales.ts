/**
 * @module
 * `GET /v1/partner/sales.csv`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerSaleExportQuerySchema } from '../sales-ledger';

export const id = 'exportPartnerSales';
export const method = 'GET';
export const path = '/v1/partner/sales.csv';
export const summary =
  'The partner’s sales of a period as CSV (RFC 4180, a header row, one line per sale, newest paid first): ?from= (inclusive) and ?to= (exclusive) required, ?widgetId= optional.';
export const auth = 'partner';
export const query = PartnerSaleExportQuerySchema;
export const status = 200;
export const contentType = 'text/csv';
