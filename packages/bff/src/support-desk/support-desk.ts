/**
 * @module
 * The partner's support desk: its checkouts listed and searched (status, creation time, traveller e-mail, eSIM,
 * payment reference) and the eSIMs its widgets sold, newest first, a page at a time — read from the indexes kept
 * with every checkout write (`checkout/checkout-index.ts`), never by reading every checkout. A search picks the
 * narrowest index its filters name (an exact value before a status before all), per widget of the partner, and
 * checks every checkout it reads against all the filters. A list shows each checkout as last stored; reading one
 * checkout brings it up to date with its order.
 */
import type { PartnerCheckout, PartnerCheckoutListQuery, PartnerEsimSummary } from '@esim-embed/shared';
import { type CheckoutIndexNames, esimOf, searchedEmail } from '../checkout/checkout-index';
import { toPartnerCheckout } from '../checkout/checkout-reads';
import type { CheckoutRecord, CheckoutRepository } from '../checkout/checkout-record';
import type { EsimOwners } from '../checkout/esim-owners';
import type { ListPage, ListPosition } from '../store/index-pages';
import { readIndexPage } from '../store/index-pages';
import { STORE_INDEXES, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** The filters of a checkout search (the query without its page). */
export type CheckoutFilters = Omit<PartnerCheckoutListQuery, 'limit' | 'cursor'>;

/** Lists for the partner's support. */
export interface SupportDesk {
  /** A page of the partner's checkouts that pass every filter, newest first. */
  listCheckouts(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    filters: CheckoutFilters,
    page: { after: ListPosition | null; limit: number },
  ): Promise<ListPage<PartnerCheckout>>;
  /** A page of the eSIMs the partner's widgets sold, newest first. */
  listEsims(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    page: { after: ListPosition | null; limit: number },
  ): Promise<ListPage<PartnerEsimSummary>>;
}

export interface SupportDeskOptions {
  store: Store;
  repository: Pick<CheckoutRepository, 'getCheckout'>;
  esimOwners: Pick<EsimOwners, 'sellerOf'>;
  /** The names of the checkout indexes (`checkout/checkout-index.ts`). */
  indexNames: CheckoutIndexNames;
}

/**
 * The index of one widget that holds every checkout `filters` can match, the narrowest one they name: for an exact
 * value, each name it had (under the newest key first), read merged (`CheckoutIndexNames`).
 */
function narrowestIndexes(names: CheckoutIndexNames, widgetId: string, filters: CheckoutFilters): string[] {
  if (filters.email !== undefined) return names.email(widgetId, filters.email);
  if (filters.esimId !== undefined) return names.esim(widgetId, filters.esimId);
  if (filters.paymentReference !== undefined)
    return names.paymentReference(widgetId, filters.paymentReference);
  if (filters.status !== undefined) return [STORE_INDEXES.checkoutsByStatus(widgetId, filters.status)];
  return [STORE_INDEXES.checkouts(widgetId)];
}

/**
 * Whether a checkout passes every filter (an index entry may be stale: the record decides). The index it was read
 * from is one the filters name ({@link narrowestIndexes}), so passing them is being in it.
 */
function passes(record: CheckoutRecord, filters: CheckoutFilters): boolean {
  return (
    (filters.status === undefined || record.status === filters.status) &&
    (filters.email === undefined ||
      (record.email !== null && searchedEmail(record.email) === searchedEmail(filters.email))) &&
    (filters.esimId === undefined || esimOf(record) === filters.esimId) &&
    (filters.paymentReference === undefined || record.paymentReference === filters.paymentReference)
  );
}

const scoreOf = (time: string | undefined, none: number) => (time === undefined ? none : Date.parse(time));

/** The {@link SupportDesk} over the store's indexes. */
export function createSupportDesk(options: SupportDeskOptions): SupportDesk {
  const { store, repository, esimOwners, indexNames } = options;
  return {
    listCheckouts(widgets, filters, { after, limit }) {
      const names = new Map(
        [...widgets.keys()].flatMap((widgetId) =>
          narrowestIndexes(indexNames, widgetId, filters).map((name) => [name, widgetId] as const),
        ),
      );
      return readIndexPage({
        store,
        names: [...names.keys()],
        fromScore: scoreOf(filters.createdFrom, Number.NEGATIVE_INFINITY),
        toScore: scoreOf(filters.createdTo, Number.POSITIVE_INFINITY),
        after,
        limit,
        async resolve(entry, index, name) {
          const stored = await repository.getCheckout(entry.member);
          // Gone (expired): its entry goes too. A checkout never comes back under the same id.
          if (stored === null) {
            await index.remove(entry.member).catch(() => undefined);
            return undefined;
          }
          const record = stored.record;
          if (names.get(name) !== record.widgetId || !passes(record, filters)) return undefined;
          return toPartnerCheckout(record);
        },
      });
    },

    listEsims(widgets, { after, limit }) {
      return readIndexPage({
        store,
        names: [...widgets.keys()].map((widgetId) => STORE_INDEXES.esims(widgetId)),
        fromScore: Number.NEGATIVE_INFINITY,
        toScore: Number.POSITIVE_INFINITY,
        after,
        limit,
        async resolve(entry, index) {
          const seller = await esimOwners.sellerOf(entry.member);
          if (seller === null) {
            await index.remove(entry.member).catch(() => undefined);
            return undefined;
          }
          if (!widgets.has(seller.widgetId)) return undefined;
          const checkout = (await repository.getCheckout(seller.checkoutId))?.record ?? null;
          return {
            esimId: entry.member,
            widgetId: seller.widgetId,
            checkoutId: seller.checkoutId,
            replaces: seller.replaces ?? null,
            soldAt: new Date(entry.score).toISOString(),
            checkout:
              checkout === null
                ? null
                : { status: checkout.status, plan: checkout.plan, email: checkout.email },
          };
        },
      });
    },
  };
}
