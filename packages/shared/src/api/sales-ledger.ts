/**
 * @module
 * The partner's sales ledger (`/v1/partner/sales`): one record per sale — a checkout that became an upstream
 * order — kept long after the checkout itself (`retention.salesLedgerDays`, 400 days by default), without anything personal
 * (no e-mail, no address, no token, no installation data). Listed newest first by when it was paid, found by
 * checkout id, eSIM or payment reference, and exported for a period as CSV for accounting.
 */
import { z } from 'zod';
import { PurchaseKindSchema } from '../upstream/quote';
import { DateTimeSchema, NonNegativeMoneySchema } from '../upstream/upstream-common';
import { ApiMetaSchema } from './common';
import { ListQuerySchema, listPageEnvelope } from './list-page';

/**
 * Where a sale stands: `placing` (paid: confirmed by the partner, or a `direct` checkout placed), `provisioning`,
 * `ready` (the eSIM was issued), `failed` (the order failed after the payment: give the money back), `cancelled`
 * (ended after its order without a refund of the order seen) or `refunded` (the upstream refunded the order).
 */
export const SaleStatusSchema = z.enum([
  'placing',
  'provisioning',
  'ready',
  'failed',
  'cancelled',
  'refunded',
]);
export type SaleStatus = z.infer<typeof SaleStatusSchema>;

/** One sale as the ledger keeps it: nothing in it names or reaches the traveller. */
export const PartnerSaleSchema = z.strictObject({
  /** The checkout that made the sale (`chk_…`): the sale's id. */
  checkoutId: z.string().min(1),
  widgetId: z.string().min(1),
  /** `issue` (a new eSIM) or `top_up` of `esimId`. */
  kind: PurchaseKindSchema,
  status: SaleStatusSchema,
  /** What was sold, as the catalog named it then. */
  plan: z.strictObject({
    offerId: z.string().min(1),
    title: z.string(),
    destinationCode: z.string(),
    destinationName: z.string(),
  }),
  /** The retail price the traveller paid. */
  amount: NonNegativeMoneySchema,
  /** Your wholesale cost of the order, as quoted when the checkout was made. */
  wholesale: NonNegativeMoneySchema.nullable(),
  /** Your own reference of the payment, as given to the confirm; null for a `direct` sale or none given. */
  paymentReference: z.string().nullable(),
  /** The upstream order, once placed. */
  orderId: z.string().nullable(),
  /** The upstream order's last status the BFF saw (`paid`, `completed`, `refund_requested`, `refunded`, …). */
  orderStatus: z.string().nullable(),
  /** The eSIM issued (or topped up), once known. */
  esimId: z.string().nullable(),
  /** Why a `failed` sale failed (an error code), else null. */
  failureCode: z.string().nullable(),
  /** When the checkout was created. */
  createdAt: DateTimeSchema,
  /** When the BFF saw it paid (the confirm, or a `direct` checkout's placing): the ledger's order and periods. */
  paidAt: DateTimeSchema,
  /** When the BFF first saw its eSIM ready, or null. */
  readyAt: DateTimeSchema.nullable(),
  /** When the BFF first saw the order refunded, or null. */
  refundedAt: DateTimeSchema.nullable(),
  /** The last change of this record. */
  updatedAt: DateTimeSchema,
});
export type PartnerSale = z.infer<typeof PartnerSaleSchema>;

/** An instant of a period: a UTC day (`2026-10-01`, its midnight) or an ISO date-time with its offset. */
export const SalePeriodBoundSchema = z.union([z.iso.date(), DateTimeSchema]);

/** The period of a sales query: `from` inclusive, `to` exclusive, by `paidAt`; `from` before `to`. */
const periodShape = {
  from: SalePeriodBoundSchema.optional(),
  to: SalePeriodBoundSchema.optional(),
  /** One of the widgets your secret opens; by default all of them. */
  widgetId: z.string().min(1).max(64).optional(),
};

/** Milliseconds since the epoch of a {@link SalePeriodBoundSchema} value (a bare day is its UTC midnight). */
export const salePeriodBoundMs = (bound: string): number =>
  Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(bound) ? `${bound}T00:00:00Z` : bound);

/** A period query's bounds in milliseconds since the epoch (`to` exclusive); a bound not given stays undefined. */
export const salePeriodMs = (query: { from?: string | undefined; to?: string | undefined }) => ({
  fromMs: query.from === undefined ? undefined : salePeriodBoundMs(query.from),
  toMs: query.to === undefined ? undefined : salePeriodBoundMs(query.to),
});

/** Refuses a period whose `from` is not before its `to`. */
function periodInOrder(query: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (query.from === undefined || query.to === undefined) return;
  if (salePeriodBoundMs(query.from) >= salePeriodBoundMs(query.to)) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: '`to` must come after `from`' });
  }
}

/**
 * `GET /v1/partner/sales`: every filter optional, all applied together — the period (`from`, `to`), a widget,
 * the eSIM (its issue and its top-ups) and your payment reference.
 */
export const PartnerSaleListQuerySchema = ListQuerySchema.extend({
  ...periodShape,
  esimId: z.string().min(1).max(128).optional(),
  paymentReference: z.string().min(1).max(128).optional(),
}).superRefine(periodInOrder);
export type PartnerSaleListQuery = z.infer<typeof PartnerSaleListQuerySchema>;
export const PartnerSaleListResponseSchema = listPageEnvelope(PartnerSaleSchema);
export type PartnerSaleListResponse = z.infer<typeof PartnerSaleListResponseSchema>;

/** `GET /v1/partner/sales/{checkoutId}`. */
export const PartnerSaleResponseSchema = z.strictObject({ data: PartnerSaleSchema, meta: ApiMetaSchema });
export type PartnerSaleResponse = z.infer<typeof PartnerSaleResponseSchema>;

/** `GET /v1/partner/sales.csv`: a period is required (`from` inclusive, `to` exclusive), a widget optional. */
export const PartnerSaleExportQuerySchema = z
  .strictObject({
    ...periodShape,
    from: SalePeriodBoundSchema,
    to: SalePeriodBoundSchema,
  })
  .superRefine(periodInOrder);
export type PartnerSaleExportQuery = z.infer<typeof PartnerSaleExportQuerySchema>;

/** The columns of the CSV export, in order (its header row). */
export const SALE_CSV_COLUMNS = [
  'checkout_id',
  'widget_id',
  'kind',
  'status',
  'plan_offer_id',
  'plan_title',
  'destination_code',
  'destination_name',
  'currency',
  'amount',
  'wholesale_currency',
  'wholesale',
  'payment_reference',
  'order_id',
  'order_status',
  'esim_id',
  'failure_code',
  'created_at',
  'paid_at',
  'ready_at',
  'refunded_at',
] as const;
