/**
 * @module
 * The indexes that let a partner list and search its checkouts and eSIMs without reading every record (see
 * `STORE_INDEXES`): which indexes a checkout belongs to, and keeping them with every write of it. The checkout
 * repository calls {@link CheckoutIndex.beforeWrite} before it writes a checkout — the checkout is added to every
 * index it will belong to, so a crash after the write never leaves it out of a list — and
 * {@link CheckoutIndex.afterWrite} once the write stands, taking it out of those it left (a status it moved on
 * from). A membership added for a write that then lost its compare-and-set is harmless: a list checks every
 * checkout it reads against its filters.
 *
 * Members expire a little after their checkout could: each write that changes a checkout's memberships, and the
 * first write a day after the last indexing, adds them again with a fresh time to live (`indexedAt` on the record
 * says when). A list drops the members whose checkout has gone.
 */
import { createHash } from 'node:crypto';
import type { IndexedRecords } from '../store/index-rebuild';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import { CHECKOUT_RETENTION_MS, type CheckoutRecord, readCheckoutRecord } from './checkout-record';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a membership lives: longer than the checkout can after the write that indexed it. */
const CHECKOUT_INDEX_TTL_MS = CHECKOUT_RETENTION_MS + 2 * DAY_MS;
/** A write this long after the last indexing indexes the checkout again (its memberships' time to live renewed). */
const REINDEX_AFTER_MS = DAY_MS;
/**
 * How long an eSIM stays in its seller's list, and its seller is remembered (`esim-owners.ts`): longer than any
 * eSIM or manage link lives.
 */
export const ESIM_INDEX_TTL_MS = 2 * 365 * DAY_MS;

/** SHA-256 of an exact value that names an index (never the value itself). */
export const indexDigest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The e-mail address as a search matches it: trimmed, lower case. */
export const searchedEmail = (email: string) => email.trim().toLowerCase();

/** The digest that names the index of an e-mail address ({@link searchedEmail}). */
export const emailDigest = (email: string) => indexDigest(searchedEmail(email));

/** The eSIM a checkout issued or tops up, once known. */
export const esimOf = (record: CheckoutRecord): string | null =>
  record.esimId ?? record.order?.esimId ?? null;

/** A checkout's place in its indexes: its creation time (ms), the order of every partner list. */
const checkoutScore = (record: CheckoutRecord) => Date.parse(record.createdAt);

/** Every checkout index `record` belongs to. */
export function checkoutIndexNames(record: CheckoutRecord): string[] {
  const widget = record.widgetId;
  const names = [STORE_INDEXES.checkouts(widget), STORE_INDEXES.checkoutsByStatus(widget, record.status)];
  if (record.email !== null) names.push(STORE_INDEXES.checkoutsByEmail(widget, emailDigest(record.email)));
  const esimId = esimOf(record);
  if (esimId !== null) names.push(STORE_INDEXES.checkoutsByEsim(widget, indexDigest(esimId)));
  if (record.paymentReference !== null) {
    names.push(STORE_INDEXES.checkoutsByPaymentReference(widget, indexDigest(record.paymentReference)));
  }
  return names;
}

/** The eSIM `record` sold (an issue that issued one), or null. */
const esimSold = (record: CheckoutRecord) => (record.kind === 'issue' ? esimOf(record) : null);

/** Keeps the indexes with the checkouts' writes, and builds them for a checkout of an earlier release. */
export interface CheckoutIndex {
  /** Add `next` to its indexes when due; answers `next` to write (its `indexedAt` set when it was indexed). */
  beforeWrite(before: CheckoutRecord | null, next: CheckoutRecord): Promise<CheckoutRecord>;
  /** Take the checkout written as `after` out of the indexes `before` belonged to and it no longer does. */
  afterWrite(before: CheckoutRecord | null, after: CheckoutRecord): Promise<void>;
  /** Add a stored checkout to all its indexes (the rebuild after an upgrade or an import). */
  indexAll(record: CheckoutRecord): Promise<void>;
}

/** The {@link CheckoutIndex} of `store`. */
export function createCheckoutIndex(store: Store, now: () => number = Date.now): CheckoutIndex {
  async function indexAll(record: CheckoutRecord): Promise<void> {
    const score = checkoutScore(record);
    const writes = checkoutIndexNames(record).map((name) =>
      store.sortedIndex(name).add(record.id, score, CHECKOUT_INDEX_TTL_MS),
    );
    const esimId = esimSold(record);
    if (esimId !== null) {
      writes.push(
        store.sortedIndex(STORE_INDEXES.esims(record.widgetId)).add(esimId, score, ESIM_INDEX_TTL_MS),
      );
    }
    await Promise.all(writes);
  }

  const sameNames = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((name, at) => name === b[at]);

  return {
    async beforeWrite(before, next) {
      const time = now();
      const due =
        before === null ||
        !sameNames(checkoutIndexNames(before), checkoutIndexNames(next)) ||
        esimSold(before) !== esimSold(next) ||
        time - (next.indexedAt ?? 0) >= REINDEX_AFTER_MS;
      if (!due) return next;
      await indexAll(next);
      return { ...next, indexedAt: time };
    },
    async afterWrite(before, after) {
      if (before === null) return;
      const kept = new Set(checkoutIndexNames(after));
      const left = checkoutIndexNames(before).filter((name) => !kept.has(name));
      await Promise.all(left.map((name) => store.sortedIndex(name).remove(after.id)));
    },
    indexAll,
  };
}

/** The stored checkouts as the index build at start reads and indexes them (`store/index-rebuild.ts`). */
export function indexedCheckouts(index: Pick<CheckoutIndex, 'indexAll'>): IndexedRecords<CheckoutRecord> {
  return {
    kind: 'checkout',
    prefix: STORE_KEYS.checkout(''),
    read: readCheckoutRecord,
    async index(record) {
      await index.indexAll(record);
      return true;
    },
  };
}
