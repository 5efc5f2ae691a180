/**
 * @module
 * `GET /v1/partner/sales`: one route of the BFF's API, as every part of the system reads it (see `../route-spec.ts`).
 */
import { PartnerSaleListQuerySchema, PartnerSaleListResponseSchema } from '../sales-ledger';

export const id = 'listPartnerSales';
export const method = 'GET';
export const path = '/v1/partner/sales';
export const summary =
  'The partner’s sales ledger (kept retention.salesLedgerDays, long after the checkouts), newest paid first: ?from= (inclusive) and ?to= (exclusive) as a UTC day or an ISO date-time, ?widgetId=, ?esimId=, ?paymentReference=; ?limit= and ?cursor= as every list.';
export const auth = 'partner';
export const query = PartnerSaleListQuerySchema;
export const status = 200;
export const response = PartnerSaleListResponseSchema;
