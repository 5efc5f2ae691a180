/**
 * @module
 * Whose data a privacy request names, as the BFF finds it: the checkouts of the partner's widgets made with an
 * e-mail address (its indexes, every name `CheckoutIndexNames.email` gives), one checkout, or the checkouts that bought or topped up one eSIM —
 * never another partner's (a checkout or eSIM of a widget the secret does not open reads as unknown). The index
 * members are checked against the records, so an entry a lost write left behind names nobody.
 */
import type { PrivacySubject, PrivacySubjectRef } from '@esim-embed/shared';
import { type CheckoutIndexNames, esimOf, searchedEmail } from '../checkout/checkout-index';
import type { CheckoutRecord, CheckoutRepository } from '../checkout/checkout-record';
import type { EsimOwners } from '../checkout/esim-owners';
import { ApiError } from '../errors';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** How many index members one read takes (a traveller has a handful of checkouts; a page is cheap). */
const PAGE = 200;

/** The receipt's and the export's name for a subject: the kind and the id asked for, never the address. */
export function subjectRef(subject: PrivacySubject): PrivacySubjectRef {
  if ('email' in subject) return { kind: 'email', id: null };
  if ('checkoutId' in subject) return { kind: 'checkout', id: subject.checkoutId };
  return { kind: 'esim', id: subject.esimId };
}

/** Every member of a sorted index (a traveller's few checkouts, deliveries or help requests), newest first. */
export async function indexMembers(store: Store, name: string): Promise<string[]> {
  const index = store.sortedIndex(name);
  const found: string[] = [];
  let after = null;
  for (;;) {
    const page = await index.range({ fromScore: -Infinity, toScore: Infinity, after, limit: PAGE });
    found.push(...page.map((entry) => entry.member));
    if (page.length < PAGE) return found;
    after = page[page.length - 1] ?? null;
  }
}

export interface PrivacySubjectsOptions {
  store: Store;
  repository: Pick<CheckoutRepository, 'getCheckout'>;
  esimOwners: Pick<EsimOwners, 'sellerAmong'>;
  /** The names of the checkout indexes (keyed; a search reads the earlier names too). */
  indexNames: Pick<CheckoutIndexNames, 'email' | 'esim'>;
}

/**
 * The checkouts of `widgets` (the caller's) that `subject` names, oldest first. A checkout or an eSIM none of them
 * sold is refused as unknown (`checkout_not_found`, `esim_not_found`); an address that bought nothing names none.
 */
export async function subjectCheckouts(
  options: PrivacySubjectsOptions,
  widgets: ReadonlyMap<string, WidgetRuntime>,
  subject: PrivacySubject,
): Promise<CheckoutRecord[]> {
  const { store, repository } = options;
  let candidates: { ids: string[]; belongs: (record: CheckoutRecord) => boolean };
  if ('checkoutId' in subject) {
    candidates = { ids: [subject.checkoutId], belongs: () => true };
  } else if ('email' in subject) {
    const address = searchedEmail(subject.email);
    const names = [...widgets.keys()].flatMap((widgetId) =>
      options.indexNames.email(widgetId, subject.email),
    );
    candidates = {
      ids: (await Promise.all(names.map((name) => indexMembers(store, name)))).flat(),
      belongs: (record) => record.email !== null && searchedEmail(record.email) === address,
    };
  } else {
    // The eSIM must be one the caller's widgets sold (a top-up of it may have come through any of them).
    await options.esimOwners.sellerAmong(widgets, subject.esimId);
    const names = [...widgets.keys()].flatMap((widgetId) =>
      options.indexNames.esim(widgetId, subject.esimId),
    );
    candidates = {
      ids: (await Promise.all(names.map((name) => indexMembers(store, name)))).flat(),
      belongs: (record) => esimOf(record) === subject.esimId,
    };
  }
  const records = await Promise.all([...new Set(candidates.ids)].map((id) => repository.getCheckout(id)));
  const found = records
    .flatMap((stored) => (stored === null ? [] : [stored.record]))
    .filter((record) => widgets.has(record.widgetId) && candidates.belongs(record))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if ('checkoutId' in subject && found.length === 0) {
    throw new ApiError('checkout_not_found', { params: { checkoutId: subject.checkoutId } });
  }
  return found;
}

/** The eSIMs `checkouts` bought or topped up, once each. */
export const esimsOf = (checkouts: readonly CheckoutRecord[]): string[] => [
  ...new Set(checkouts.flatMap((record) => esimOf(record) ?? [])),
];
