/**
 * @module
 * A sale as the ledger stores it, and how it follows its checkout. A checkout counts as a sale once it was paid —
 * it reached `placing`: the partner confirmed it, or a `direct` checkout was placed — and stays one whatever comes
 * after (`failed`, `cancelled`, `refunded`); a checkout that never left `awaiting_payment` (expired, cancelled
 * unpaid) is none. The record copies only what is not personal: no e-mail, no address or session, no token, no
 * activation code or link. It is read with its own lenient schema (it lives far longer than any deploy), never the
 * API's.
 */
import { CurrencySchema, type PartnerSale, type SaleStatus } from '@esim-embed/shared';
import { z } from 'zod';
import type { CheckoutRecord, Stored } from '../checkout/checkout-record';

/** The version this release writes. */
export const SALE_RECORD_SCHEMA_VERSION = 1;

const StoredMoney = z.looseObject({ amountMinor: z.int(), currency: CurrencySchema });
const Time = z.string();

/** A sale as stored, version 1 (fields a later release adds are kept on read). */
const saleShape = {
  schemaVersion: z.int().min(1).default(1),
  checkoutId: z.string(),
  widgetId: z.string(),
  kind: z.enum(['issue', 'top_up']).catch('issue'),
  // A status of a later release reads as the sale it still is.
  status: z.enum(['placing', 'provisioning', 'ready', 'failed', 'cancelled', 'refunded']).catch('placing'),
  plan: z.looseObject({
    offerId: z.string(),
    title: z.string().default(''),
    destinationCode: z.string().default(''),
    destinationName: z.string().default(''),
  }),
  amount: StoredMoney,
  wholesale: StoredMoney.nullable().default(null),
  paymentReference: z.string().nullable().default(null),
  orderId: z.string().nullable().default(null),
  orderStatus: z.string().nullable().default(null),
  esimId: z.string().nullable().default(null),
  failureCode: z.string().nullable().default(null),
  createdAt: Time,
  paidAt: Time,
  readyAt: Time.nullable().default(null),
  refundedAt: Time.nullable().default(null),
  updatedAt: Time,
  /**
   * The store version of the checkout this was last taken from (0: not known, a build from stored checkouts): an
   * older view of the checkout — a write that lost a race to be told — never overwrites a newer one. Versions
   * only grow, also across a state export and import; clocks of several instances need not agree.
   */
  checkoutVersion: z.int().min(0).default(0),
};
const StoredSaleSchema = z.looseObject(saleShape);
/** A sale as stored (the kept unknown fields are not typed). */
export type SaleRecord = z.output<z.ZodObject<typeof saleShape>>;

/** A stored sale read back (records of earlier releases included). */
export const readSaleRecord = (json: string): SaleRecord => StoredSaleSchema.parse(JSON.parse(json));

/** The JSON written for a sale: this release's schema version stamped on it. */
export const writtenSale = (record: SaleRecord): string =>
  JSON.stringify({ ...record, schemaVersion: SALE_RECORD_SCHEMA_VERSION });

const PAID_STATUSES: ReadonlySet<string> = new Set(['placing', 'provisioning', 'ready']);

/**
 * Whether a checkout is a sale. A `failed` or `cancelled` one without a ledger record yet (a record of a release
 * before the ledger) counts when it shows it was paid: it has an order or the partner's payment reference.
 */
export function isSale(checkout: CheckoutRecord): boolean {
  if (PAID_STATUSES.has(checkout.status)) return true;
  return (
    (checkout.status === 'failed' || checkout.status === 'cancelled') &&
    (checkout.order !== null || checkout.paymentReference !== null)
  );
}

/** The ledger's status of a sale's checkout (a refunded order ends its checkout `cancelled`). */
function saleStatusOf(checkout: CheckoutRecord): SaleStatus {
  switch (checkout.status) {
    case 'cancelled': {
      const order = checkout.order;
      return order?.status === 'refunded' || order?.billing?.status === 'refunded' ? 'refunded' : 'cancelled';
    }
    case 'provisioning':
    case 'ready':
    case 'failed':
      return checkout.status;
    default:
      return 'placing';
  }
}

/** What of a checkout the ledger shows: a write of the checkout that changes none of it changes no sale. */
export function saleView(checkout: CheckoutRecord) {
  return {
    status: saleStatusOf(checkout),
    paymentReference: checkout.paymentReference,
    orderId: checkout.order?.id ?? null,
    orderStatus: checkout.order?.status ?? null,
    esimId: checkout.esimId ?? checkout.order?.esimId ?? null,
    failureCode: checkout.failure?.code ?? null,
  };
}

const sameView = (a: ReturnType<typeof saleView>, b: ReturnType<typeof saleView>) =>
  (Object.keys(a) as (keyof typeof a)[]).every((field) => a[field] === b[field]);

/** Whether two states of a checkout show the ledger different things. */
export const saleViewChanged = (before: CheckoutRecord, after: CheckoutRecord) =>
  isSale(before) !== isSale(after) || !sameView(saleView(before), saleView(after));

/** The view a stored sale shows (to compare with a checkout's). */
const storedView = (sale: SaleRecord): ReturnType<typeof saleView> => ({
  status: sale.status,
  paymentReference: sale.paymentReference,
  orderId: sale.orderId,
  orderStatus: sale.orderStatus,
  esimId: sale.esimId,
  failureCode: sale.failureCode,
});

/**
 * The sale `checkout` makes now, given the one stored (`previous`), or null when nothing is to be written: not a
 * sale, an older version of the checkout than the one the stored sale was taken from, or nothing the ledger shows
 * changed. The times the
 * BFF sees a step (paid, ready, refunded) are set once, at `time`; a sale first seen past its payment is dated
 * paid at its checkout's creation, and one of a release before the ledger (read at start, version 0) leaves the
 * steps it did not see null.
 */
export function saleOf(
  { record: checkout, version }: Stored<CheckoutRecord>,
  previous: SaleRecord | null,
  time: number,
): SaleRecord | null {
  if (previous === null && !isSale(checkout)) return null;
  // A checkout of unknown version (0) makes a sale only where there is none.
  if (previous !== null && (version === 0 || previous.checkoutVersion > version)) return null;
  const view = saleView(checkout);
  // The refund the ledger saw after its checkout had gone stands: a checkout never comes back from it.
  const status = previous?.status === 'refunded' ? 'refunded' : view.status;
  if (previous !== null && sameView({ ...view, status }, storedView(previous))) return null;
  const now = new Date(time).toISOString();
  return {
    schemaVersion: SALE_RECORD_SCHEMA_VERSION,
    checkoutId: checkout.id,
    widgetId: checkout.widgetId,
    kind: checkout.kind,
    plan: {
      offerId: checkout.plan.offerId,
      title: checkout.plan.title,
      destinationCode: checkout.plan.destination.code,
      destinationName: checkout.plan.destination.name,
    },
    amount: { amountMinor: checkout.amount.amountMinor, currency: checkout.amount.currency },
    wholesale: { amountMinor: checkout.wholesale.amountMinor, currency: checkout.wholesale.currency },
    ...view,
    status,
    createdAt: checkout.createdAt,
    paidAt: previous?.paidAt ?? (checkout.status === 'placing' ? now : checkout.createdAt),
    // A checkout read without its history (version 0: the build at start) says nothing of when it got there.
    readyAt: previous?.readyAt ?? (status === 'ready' && version !== 0 ? now : null),
    refundedAt: previous?.refundedAt ?? (status === 'refunded' && version !== 0 ? now : null),
    updatedAt: now,
    checkoutVersion: version,
  };
}

/** A sale whose order the BFF saw refunded after its checkout had gone (a help request's refund completing). */
export function refundedSale(sale: SaleRecord, time: number): SaleRecord | null {
  if (sale.status === 'refunded') return null;
  const now = new Date(time).toISOString();
  return { ...sale, status: 'refunded', orderStatus: 'refunded', refundedAt: now, updatedAt: now };
}

/** A stored sale as the partner API answers it. */
export function toPartnerSale(sale: SaleRecord): PartnerSale {
  return {
    checkoutId: sale.checkoutId,
    widgetId: sale.widgetId,
    kind: sale.kind,
    status: sale.status,
    plan: {
      offerId: sale.plan.offerId,
      title: sale.plan.title,
      destinationCode: sale.plan.destinationCode,
      destinationName: sale.plan.destinationName,
    },
    amount: { amountMinor: sale.amount.amountMinor, currency: sale.amount.currency },
    wholesale:
      sale.wholesale === null
        ? null
        : { amountMinor: sale.wholesale.amountMinor, currency: sale.wholesale.currency },
    paymentReference: sale.paymentReference,
    orderId: sale.orderId,
    orderStatus: sale.orderStatus,
    esimId: sale.esimId,
    failureCode: sale.failureCode,
    createdAt: sale.createdAt,
    paidAt: sale.paidAt,
    readyAt: sale.readyAt,
    refundedAt: sale.refundedAt,
    updatedAt: sale.updatedAt,
  };
}
