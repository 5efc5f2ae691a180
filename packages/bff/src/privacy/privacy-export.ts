/**
 * @module
 * Every datum the BFF holds about one traveller, for the partner to hand them (GDPR art. 15): their checkouts as
 * the partner reads them (the e-mail address included while it is kept), the eSIMs they bought, the webhook
 * deliveries about those checkouts with the events they send, and the help requests about those eSIMs. After an
 * erasure an address names nothing, and a checkout or eSIM answers its money facts without the person.
 */
import type { PartnerActionRequest, PrivacyExport, PrivacySubject } from '@esim-embed/shared';
import { listActionRequests } from '../after-sale/action-request-desk';
import { toPartnerCheckout } from '../checkout/checkout-reads';
import type { EsimOwners } from '../checkout/esim-owners';
import type { ListPage, ListPosition } from '../store/index-pages';
import { STORE_KEYS } from '../store/store';
import type { WebhookDeliveryDesk } from '../webhooks/webhook-delivery-desk';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { esimsOf, type PrivacySubjectsOptions, subjectCheckouts, subjectRef } from './privacy-subjects';

export interface PrivacyExportOptions extends PrivacySubjectsOptions {
  esimOwners: Pick<EsimOwners, 'sellerAmong' | 'sellerOf'>;
  webhookDesk: Pick<WebhookDeliveryDesk, 'list' | 'read'>;
  now?: () => number;
}

/** Items listed a page at a time. */
const PAGE = 100;

/** Every item of a list read page by page. */
async function everyPage<T>(page: (after: ListPosition | null) => Promise<ListPage<T>>): Promise<T[]> {
  const items: T[] = [];
  let after: ListPosition | null = null;
  do {
    const read: ListPage<T> = await page(after);
    items.push(...read.items);
    after = read.next;
  } while (after !== null);
  return items;
}

/** What the BFF holds about `subject` in `widgets` (the caller's). */
export async function exportTraveller(
  options: PrivacyExportOptions,
  widgets: ReadonlyMap<string, WidgetRuntime>,
  subject: PrivacySubject,
): Promise<PrivacyExport> {
  const { store, webhookDesk } = options;
  const now = options.now ?? Date.now;
  const checkouts = await subjectCheckouts(options, widgets, subject);
  const widgetIds = [...widgets.keys()];
  const own = new Set(widgetIds);
  const esimIds = [...new Set([...('esimId' in subject ? [subject.esimId] : []), ...esimsOf(checkouts)])];

  const esims = await Promise.all(
    esimIds.map(async (id) => {
      const [seller, erased] = await Promise.all([
        options.esimOwners.sellerOf(id),
        store.get(STORE_KEYS.esimErased(id)),
      ]);
      const sold = seller !== null && own.has(seller.widgetId);
      const bought = checkouts.find((record) => record.kind === 'issue' && record.order?.esimId === id);
      return {
        id,
        widgetId: sold ? seller.widgetId : (bought?.widgetId ?? checkouts[0]?.widgetId ?? widgetIds[0] ?? ''),
        checkoutId: sold ? seller.checkoutId : (bought?.id ?? null),
        erased: erased !== null,
      };
    }),
  );

  const deliveries = [];
  for (const checkout of checkouts) {
    const listed = await everyPage((after) =>
      webhookDesk.list([checkout.widgetId], { checkoutId: checkout.id }, after, PAGE),
    );
    for (const delivery of listed) deliveries.push(await webhookDesk.read(own, delivery.id));
  }

  const actionRequests: PartnerActionRequest[] = [];
  for (const esimId of esimIds) {
    actionRequests.push(
      ...(await everyPage((after) => listActionRequests(store, widgetIds, { esimId }, after, PAGE))),
    );
  }

  return {
    subject: subjectRef(subject),
    exportedAt: new Date(now()).toISOString(),
    checkouts: checkouts.map(toPartnerCheckout),
    esims,
    webhookDeliveries: deliveries,
    actionRequests,
  };
}
