/**
 * @module
 * The partner's sales ledger as its server reads it: one sale by its checkout id, and pages of sales newest paid
 * first, within a period and filtered by eSIM or payment reference — read from the ledger's sorted indexes, one
 * per widget of the partner (the narrowest its filters name), merged; never by reading every record. Only the
 * partner's own widgets' sales: an index entry is checked against the record it names.
 */
import type { PartnerSale, PartnerSaleListQuery } from '@esim-embed/shared';
import type { ListPage, ListPosition } from '../store/index-pages';
import { readIndexPage } from '../store/index-pages';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import { readSaleRecord, type SaleRecord, toPartnerSale } from './sale-record';
import { saleIndexDigest } from './sales-ledger';

/** The filters of a sales list: the period as milliseconds (`to` exclusive), the eSIM and payment reference. */
export interface SaleFilters extends Pick<PartnerSaleListQuery, 'esimId' | 'paymentReference'> {
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** Reads the ledger for the partner. */
export interface SalesDesk {
  /** The sale of `checkoutId` if one of `widgetIds` made it, else null. */
  read(widgetIds: readonly string[], checkoutId: string): Promise<PartnerSale | null>;
  /** A page of the sales of `widgetIds` that pass every filter, newest paid first. */
  list(
    widgetIds: readonly string[],
    filters: SaleFilters,
    page: { after: ListPosition | null; limit: number },
  ): Promise<ListPage<PartnerSale>>;
}

/** The index of one widget that holds every sale `filters` can match, the narrowest one they name. */
function narrowestIndex(widgetId: string, filters: SaleFilters): string {
  if (filters.esimId !== undefined)
    return STORE_INDEXES.salesByEsim(widgetId, saleIndexDigest(filters.esimId));
  if (filters.paymentReference !== undefined) {
    return STORE_INDEXES.salesByPaymentReference(widgetId, saleIndexDigest(filters.paymentReference));
  }
  return STORE_INDEXES.sales(widgetId);
}

/** Whether a sale passes every filter (the index it came from may be stale: the record decides). */
const passes = (sale: SaleRecord, filters: SaleFilters) =>
  (filters.esimId === undefined || sale.esimId === filters.esimId) &&
  (filters.paymentReference === undefined || sale.paymentReference === filters.paymentReference);

/** The {@link SalesDesk} over `store`. */
export function createSalesDesk(store: Store): SalesDesk {
  async function stored(checkoutId: string): Promise<SaleRecord | null> {
    const found = await store.get(STORE_KEYS.sale(checkoutId));
    return found === null ? null : readSaleRecord(found.value);
  }

  return {
    async read(widgetIds, checkoutId) {
      const sale = await stored(checkoutId);
      return sale !== null && widgetIds.includes(sale.widgetId) ? toPartnerSale(sale) : null;
    },

    list(widgetIds, filters, { after, limit }) {
      const names = new Map(widgetIds.map((widgetId) => [narrowestIndex(widgetId, filters), widgetId]));
      return readIndexPage({
        store,
        names: [...names.keys()],
        fromScore: filters.fromMs ?? Number.NEGATIVE_INFINITY,
        // The period's end is exclusive; the index's range is not.
        toScore: filters.toMs === undefined ? Number.POSITIVE_INFINITY : filters.toMs - 1,
        after,
        limit,
        async resolve(entry, index, name) {
          const sale = await stored(entry.member);
          // Gone (past its retention): its entry goes too. A sale never comes back under the same id.
          if (sale === null) {
            await index.remove(entry.member).catch(() => undefined);
            return undefined;
          }
          if (names.get(name) !== sale.widgetId || !passes(sale, filters)) return undefined;
          return toPartnerSale(sale);
        },
      });
    },
  };
}
