/**
 * @module
 * The sales ledger of a period as CSV for accounting (RFC 4180): a header row, then one line per sale, newest
 * paid first, CRLF line ends; amounts as decimal strings in major units with their currency in the column before,
 * times as UTC ISO 8601. Streamed a page of the ledger at a time as the client reads, so a month of a hundred
 * thousand sales never becomes one string in memory: what the BFF holds is the page being written.
 */
import { decimalAmount, type PartnerSale, SALE_CSV_COLUMNS, salePeriodMs } from '@esim-embed/shared';
import type { ListPage, ListPosition } from '../store/index-pages';
import type { SalesDesk } from './sales-desk';

/** Sales read per page of the export. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * One field: quoted when it holds a quote, a comma or a line break (its quotes doubled). Text a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@` first) gets a leading `'`, so that a plan title or a reference
 * cannot run anything on the accountant's machine; amounts and times never start so.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The fields of one sale, in the order of {@link SALE_CSV_COLUMNS}. */
function fieldsOf(sale: PartnerSale): Record<(typeof SALE_CSV_COLUMNS)[number], string | null> {
  return {
    checkout_id: sale.checkoutId,
    widget_id: sale.widgetId,
    kind: sale.kind,
    status: sale.status,
    plan_offer_id: sale.plan.offerId,
    plan_title: sale.plan.title,
    destination_code: sale.plan.destinationCode,
    destination_name: sale.plan.destinationName,
    currency: sale.amount.currency,
    amount: decimalAmount(sale.amount),
    wholesale_currency: sale.wholesale?.currency ?? null,
    wholesale: sale.wholesale === null ? null : decimalAmount(sale.wholesale),
    payment_reference: sale.paymentReference,
    order_id: sale.orderId,
    order_status: sale.orderStatus,
    esim_id: sale.esimId,
    failure_code: sale.failureCode,
    created_at: sale.createdAt,
    paid_at: sale.paidAt,
    ready_at: sale.readyAt,
    refunded_at: sale.refundedAt,
  };
}

/** One line of the export (CRLF-terminated). */
export function csvLine(sale: PartnerSale): string {
  const fields = fieldsOf(sale);
  return `${SALE_CSV_COLUMNS.map((column) => csvField(fields[column])).join(',')}\r\n`;
}

/** The header row. */
export const CSV_HEADER = `${SALE_CSV_COLUMNS.join(',')}\r\n`;

/**
 * The export as a byte stream: the header, then each page `readPage` answers, read only when the client has
 * taken the page before (the stream pulls). A failure part-way ends the stream in error, so the client sees
 * a cut answer, never a short one that looks whole.
 */
export function salesCsvStream(
  readPage: (after: ListPosition | null) => Promise<ListPage<PartnerSale>>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: ListPosition | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_HEADER));
          return;
        }
        const page = await readPage(after);
        if (page.items.length > 0) controller.enqueue(encoder.encode(page.items.map(csvLine).join('')));
        if (page.next === null) controller.close();
        else after = page.next;
      },
    },
    // One page waits at most: the next is read once the client took it.
    { highWaterMark: 1 },
  );
}

/**
 * The answer of a period's export of `widgetIds`' sales, as the partner API and the console both give it: the CSV
 * streamed, an attachment named by its period, kept by no cache.
 */
export function salesCsvAnswer(
  salesDesk: SalesDesk,
  widgetIds: readonly string[],
  query: { from: string; to: string },
): Response {
  const period = salePeriodMs(query);
  const stream = salesCsvStream((after) =>
    salesDesk.list(widgetIds, period, { after, limit: EXPORT_PAGE_SIZE }),
  );
  const name = `sales-${query.from}-${query.to}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${name}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
