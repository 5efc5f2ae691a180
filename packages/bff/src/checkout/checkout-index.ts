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
 * **Names.** An index of an exact value — a traveller's e-mail address, an eSIM, a payment reference — is named by
 * the value's keyed digest (`security/keyed-digest.ts`, the key ring's `index-name` key), never the value nor an
 * unkeyed hash of it. A search reads the name under the newest root and those the value had before (under a root
 * rotated out, and the unkeyed SHA-256 of the release before keyed names), merged; the index build at start, whose
 * mark names the newest key, moves every stored checkout to the newest names and out of the earlier ones.
 *
 * **Ends.** A checkout and its memberships end at the same instant: each indexing (a write that changes the
 * checkout's memberships, or the first write a day after the last indexing: `indexedAt` on the record says when)
 * gives them a life of `retention.checkoutDays` and a day, and every write of the record ends it at that same
 * instant ({@link CheckoutIndex.keptForMs}) — so the record is kept its retention after its last change, and at
 * most a day more. An eSIM's entry in its seller's list ends `retention.esimDays` after the sale, however often
 * its checkout is written or the widget sells again.
 */
import { createHash } from 'node:crypto';
import { retentionMs } from '../config/config-schema';
import type { KeyedDigest } from '../security/keyed-digest';
import type { IndexedRecords } from '../store/index-rebuild';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import { type CheckoutIndex, type CheckoutRecord, readCheckoutRecord } from './checkout-record';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A write this long after the last indexing indexes the checkout again (its memberships' life renewed). */
const REINDEX_AFTER_MS = DAY_MS;

/** The e-mail address as a search matches it: trimmed, lower case. */
export const searchedEmail = (email: string) => email.trim().toLowerCase();

/** The unkeyed digest that named an exact value's index in the release before keyed names (read, never written). */
const unkeyedDigest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The eSIM a checkout issued or tops up, once known. */
export const esimOf = (record: CheckoutRecord): string | null =>
  record.esimId ?? record.order?.esimId ?? null;

/** A checkout's place in its indexes: its creation time (ms), the order of every partner list. */
const checkoutScore = (record: CheckoutRecord) => Date.parse(record.createdAt);

/** The names of the checkout indexes, exact values named by their keyed digest. */
export interface CheckoutIndexNames {
  /** The id of the key the names are written under: the index build's mark names it (a rotation builds again). */
  keyId: string;
  /** Every index `record` belongs to, under the newest key. */
  of(record: CheckoutRecord): string[];
  /**
   * The indexes of one traveller's e-mail address in one widget: the one written (under the newest key) first, then
   * the names it had under roots rotated out and in the release before keyed names. A search reads them all; the
   * one function that names an e-mail address's index.
   */
  email(widgetId: string, email: string): string[];
  /** The indexes of one eSIM's checkouts in one widget (newest name first, as {@link email}). */
  esim(widgetId: string, esimId: string): string[];
  /** The indexes of one payment reference's checkouts in one widget (newest name first, as {@link email}). */
  paymentReference(widgetId: string, paymentReference: string): string[];
  /** The earlier names of `record`'s indexes (never one of {@link of}): what the index build moves it out of. */
  earlierOf(record: CheckoutRecord): string[];
}

/** The {@link CheckoutIndexNames} under `digest` (the key ring's `index-name` key). */
export function createCheckoutIndexNames(digest: KeyedDigest): CheckoutIndexNames {
  type Exact = 'email' | 'esim' | 'paymentReference';
  const named: Record<Exact, (widgetId: string, digest: string) => string> = {
    email: STORE_INDEXES.checkoutsByEmail,
    esim: STORE_INDEXES.checkoutsByEsim,
    paymentReference: STORE_INDEXES.checkoutsByPaymentReference,
  };
  /** One exact value of a checkout: the kind of index and the value, as it is named. */
  type ExactValue = { kind: Exact; widgetId: string; value: string };
  /** Its index's name under the newest key (what every write names: one HMAC). */
  const current = ({ kind, widgetId, value }: ExactValue) => named[kind](widgetId, digest(value));
  /** Its index's earlier names (what searches and the index build read). */
  const earlier = ({ kind, widgetId, value }: ExactValue) =>
    [...digest.earlier(value), unkeyedDigest(value)].map((old) => named[kind](widgetId, old));
  const all = (exact: ExactValue) => [current(exact), ...earlier(exact)];
  /** The exact values `record` is indexed by. */
  const exactOf = (record: CheckoutRecord): ExactValue[] => {
    const widgetId = record.widgetId;
    const esimId = esimOf(record);
    return [
      ...(record.email === null
        ? []
        : [{ kind: 'email' as const, widgetId, value: searchedEmail(record.email) }]),
      ...(esimId === null ? [] : [{ kind: 'esim' as const, widgetId, value: esimId }]),
      ...(record.paymentReference === null
        ? []
        : [{ kind: 'paymentReference' as const, widgetId, value: record.paymentReference }]),
    ];
  };
  return {
    keyId: digest.kid,
    of(record) {
      const widget = record.widgetId;
      return [
        STORE_INDEXES.checkouts(widget),
        STORE_INDEXES.checkoutsByStatus(widget, record.status),
        ...exactOf(record).map(current),
      ];
    },
    email: (widgetId, email) => all({ kind: 'email', widgetId, value: searchedEmail(email) }),
    esim: (widgetId, esimId) => all({ kind: 'esim', widgetId, value: esimId }),
    paymentReference: (widgetId, reference) => all({ kind: 'paymentReference', widgetId, value: reference }),
    earlierOf: (record) => exactOf(record).flatMap(earlier),
  };
}

/** The eSIM `record` sold (an issue that issued one), or null. */
const esimSold = (record: CheckoutRecord) => (record.kind === 'issue' ? esimOf(record) : null);

/** What the index is built with. */
export interface CheckoutIndexOptions {
  names: CheckoutIndexNames;
  /** How long a checkout is kept after its last change, and an eSIM sold in its seller's list. Default: the config's. */
  retention?: Pick<ReturnType<typeof retentionMs>, 'checkoutMs' | 'esimMs'> | undefined;
  now?: (() => number) | undefined;
}

/** The {@link CheckoutIndex} of `store`. */
export function createCheckoutIndex(store: Store, options: CheckoutIndexOptions): CheckoutIndex {
  const { names } = options;
  const now = options.now ?? Date.now;
  const retention = options.retention ?? retentionMs();
  /** How long a membership lives after its indexing: the checkout's retention, and the day until the next one. */
  const membershipMs = retention.checkoutMs + REINDEX_AFTER_MS;
  /** When `record`'s memberships (and so the record) end: a life after its last indexing (a record of a release before any: after its last change). */
  const endOf = (record: CheckoutRecord) => (record.indexedAt ?? Date.parse(record.updatedAt)) + membershipMs;

  async function addAll(record: CheckoutRecord): Promise<void> {
    const score = checkoutScore(record);
    const time = now();
    const writes: Promise<void>[] = [];
    const lifeMs = endOf(record) - time;
    if (lifeMs > 0)
      for (const name of names.of(record)) writes.push(store.sortedIndex(name).add(record.id, score, lifeMs));
    const esimId = esimSold(record);
    // The eSIM's entry ends its retention after the sale, whatever writes or sales come later: never renewed.
    const esimLifeMs = score + retention.esimMs - time;
    if (esimId !== null && esimLifeMs > 0) {
      writes.push(store.sortedIndex(STORE_INDEXES.esims(record.widgetId)).add(esimId, score, esimLifeMs));
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
        !sameNames(names.of(before), names.of(next)) ||
        esimSold(before) !== esimSold(next) ||
        time - (next.indexedAt ?? 0) >= REINDEX_AFTER_MS;
      if (!due) return next;
      const indexed = { ...next, indexedAt: time };
      await addAll(indexed);
      return indexed;
    },
    async afterWrite(before, after) {
      if (before === null) return;
      const kept = new Set(names.of(after));
      const left = names.of(before).filter((name) => !kept.has(name));
      await Promise.all(left.map((name) => store.sortedIndex(name).remove(after.id)));
    },
    async indexAll(record) {
      await addAll(record);
      await Promise.all(names.earlierOf(record).map((name) => store.sortedIndex(name).remove(record.id)));
    },
    keptForMs: (record) => Math.max(1, endOf(record) - now()),
  };
}

/** The stored checkouts as the index build at start reads and indexes them (`store/index-rebuild.ts`). */
export function indexedCheckouts(
  index: Pick<CheckoutIndex, 'indexAll'>,
  names: Pick<CheckoutIndexNames, 'keyId'>,
): IndexedRecords<CheckoutRecord> {
  return {
    kind: 'checkout',
    // Built again under a new key: the build moves every checkout to the new names.
    version: names.keyId,
    prefix: STORE_KEYS.checkout(''),
    read: readCheckoutRecord,
    async index(record) {
      await index.indexAll(record);
      return true;
    },
  };
}
