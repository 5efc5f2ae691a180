/**
 * @module
 * A checkout and a quote as the BFF stores them, and the repository that reads and moves them. Every
 * change is a compare-and-set on the record's version, so two confirms (or two instances) can never both
 * move a checkout from `awaiting_payment` to `placing`.
 */
import { retentionMs } from '../config/config-schema';
import { STORE_KEYS, type Store } from '../store/store';
import type { VersionedSlot, versionedUpdate } from '../store/versioned-update';
import {
  STORED_CHECKOUT_SCHEMA_VERSION,
  type StoredCheckout,
  StoredCheckoutSchema,
  type StoredQuote,
  StoredQuoteSchema,
} from './stored-checkout';

/**
 * How long a checkout is kept after its last change (status reads, partner reconciliation) when no index says
 * (tests of the repository alone): the default of `retention.checkoutDays`. With its index, a checkout ends with its
 * list entries (`CheckoutIndex.keptForMs`).
 */
const UNINDEXED_RETENTION_MS = retentionMs().checkoutMs;

/**
 * A checkout as stored: the widget's view plus what only the BFF may know (wholesale price, order link).
 * Read with its own schema (stored-checkout.ts), never the API's; `schemaVersion` is set on every write.
 */
export type CheckoutRecord = Omit<StoredCheckout, 'schemaVersion'> & { schemaVersion?: number };

/** A quote as stored: bound to the session that asked for it. */
export type QuoteRecord = Omit<StoredQuote, 'schemaVersion'> & { schemaVersion?: number };

/** A stored checkout read back (records of earlier releases included). */
export function readCheckoutRecord(json: string): CheckoutRecord {
  return StoredCheckoutSchema.parse(JSON.parse(json));
}

/** A stored quote read back (records of earlier releases included). */
export function readQuoteRecord(json: string): QuoteRecord {
  return StoredQuoteSchema.parse(JSON.parse(json));
}

/** The JSON written for a record: this release's schema version stamped on it. */
function written(record: CheckoutRecord | QuoteRecord): string {
  return JSON.stringify({ ...record, schemaVersion: STORED_CHECKOUT_SCHEMA_VERSION });
}

/** A record and the version it was read at. */
export interface Stored<T> {
  record: T;
  version: number;
}

/**
 * Keeps the indexes with the checkouts' writes, and builds them for a checkout of an earlier release: what the
 * repository asks of the index it is given (`checkout-index.ts` makes it).
 */
export interface CheckoutIndex {
  /** Add `next` to its indexes when due; answers `next` to write (its `indexedAt` set when it was indexed). */
  beforeWrite(before: CheckoutRecord | null, next: CheckoutRecord): Promise<CheckoutRecord>;
  /** Take the checkout written as `after` out of the indexes `before` belonged to and it no longer does. */
  afterWrite(before: CheckoutRecord | null, after: CheckoutRecord): Promise<void>;
  /**
   * Add a stored checkout to all its indexes, and take it out of their earlier names (the build after an upgrade,
   * a rotation of the root secret or an import).
   */
  indexAll(record: CheckoutRecord): Promise<void>;
  /** The time to live of `record` as written (after {@link beforeWrite}): it ends with its memberships. */
  keptForMs(record: CheckoutRecord): number;
}

/** Reads and writes checkouts and quotes in the store. */
export interface CheckoutRepository {
  getCheckout(id: string): Promise<Stored<CheckoutRecord> | null>;
  insertCheckout(record: CheckoutRecord): Promise<boolean>;
  /** Replace a checkout read at `version`; null when someone else changed it first. */
  updateCheckout(
    current: Stored<CheckoutRecord>,
    next: CheckoutRecord,
  ): Promise<Stored<CheckoutRecord> | null>;
  getQuote(id: string): Promise<Stored<QuoteRecord> | null>;
  insertQuote(record: QuoteRecord, ttlMs: number): Promise<boolean>;
  updateQuote(current: Stored<QuoteRecord>, next: QuoteRecord, ttlMs: number): Promise<boolean>;
}

/** Told of a checkout written with a new status (a reaction: its webhooks, its seller, its funding hold). */
export type CheckoutObserver = (before: CheckoutRecord | null, after: CheckoutRecord) => Promise<void>;

/**
 * What the repository tells of a change of status (checkout-transitions.ts): `prepare` before it is written
 * (a failure refuses the write), `written` after, with the change's reactions due on the record; `written`
 * answers the checkout as it stands once they ran (they clear what they did).
 */
export interface CheckoutTransitionHooks {
  prepare(next: CheckoutRecord): Promise<void>;
  written(before: CheckoutRecord | null, after: Stored<CheckoutRecord>): Promise<Stored<CheckoutRecord>>;
  /** A write that kept the status (its order, eSIM or payment reference may have moved) stands; never throws. */
  kept?(before: CheckoutRecord, after: Stored<CheckoutRecord>): Promise<void>;
}

/**
 * A {@link CheckoutRepository} over a {@link Store}. With `transitions`, every change of status is written with
 * the new status added to the record's `reactionsDue`, and told to them before and after. With `index`, every
 * write keeps the partner lists' indexes (`checkout-index.ts`): added to before the write, left after it. An
 * update is stamped `updatedAt` by `now`.
 */
export function createCheckoutRepository(
  store: Store,
  transitions?: CheckoutTransitionHooks,
  index?: CheckoutIndex,
  now: () => number = Date.now,
): CheckoutRepository {
  /** `next` as written: the status it enters added to the reactions due when it is a change of status. */
  const withReactionsDue = (before: CheckoutRecord | null, next: CheckoutRecord): CheckoutRecord =>
    transitions === undefined || before?.status === next.status
      ? next
      : { ...next, reactionsDue: [...(next.reactionsDue ?? []), next.status] };
  const keptForMs = (record: CheckoutRecord) => index?.keptForMs(record) ?? UNINDEXED_RETENTION_MS;
  /**
   * A `placing` checkout is the record its upstream order is placed under: held by the replicas the deployment
   * asks for before anyone places that order (a failover that lost it would let a retry order again).
   */
  const confirmPlacing = async (record: CheckoutRecord) => {
    if (record.status === 'placing') await store.confirmReplicated?.(STORE_KEYS.checkout(record.id));
  };
  return {
    async getCheckout(id) {
      const stored = await store.get(STORE_KEYS.checkout(id));
      if (stored === null) return null;
      return { record: readCheckoutRecord(stored.value), version: stored.version };
    },
    async insertCheckout(record) {
      const due = withReactionsDue(null, record);
      const next = index === undefined ? due : await index.beforeWrite(null, due);
      await transitions?.prepare(next);
      const ok = await store.insert(STORE_KEYS.checkout(record.id), written(next), keptForMs(next));
      if (ok) await confirmPlacing(next);
      if (ok) await transitions?.written(null, { record: next, version: 1 });
      return ok;
    },
    async updateCheckout(current, next) {
      const due = withReactionsDue(current.record, { ...next, updatedAt: new Date(now()).toISOString() });
      const updated = index === undefined ? due : await index.beforeWrite(current.record, due);
      const changed = current.record.status !== updated.status;
      if (changed) await transitions?.prepare(updated);
      const ok = await store.compareAndSet(
        STORE_KEYS.checkout(next.id),
        current.version,
        written(updated),
        keptForMs(updated),
      );
      if (!ok) return null;
      await confirmPlacing(updated);
      // A membership left behind is checked away by the lists: the write stands whatever this does.
      await index?.afterWrite(current.record, updated).catch(() => undefined);
      const stored = { record: updated, version: current.version + 1 };
      if (!changed) await transitions?.kept?.(current.record, stored);
      if (!changed || transitions === undefined) return stored;
      return await transitions.written(current.record, stored);
    },
    async getQuote(id) {
      const stored = await store.get(STORE_KEYS.quote(id));
      if (stored === null) return null;
      return { record: readQuoteRecord(stored.value), version: stored.version };
    },
    insertQuote: (record, ttlMs) => store.insert(STORE_KEYS.quote(record.id), written(record), ttlMs),
    updateQuote: (current, next, ttlMs) =>
      store.compareAndSet(STORE_KEYS.quote(next.id), current.version, written(next), ttlMs),
  };
}

/**
 * One checkout as a slot of {@link versionedUpdate}: written through `repository`, so that its observer hears
 * every status change; read by id, or by the caller's own reader (an access check, a refresh). Checkouts are
 * never deleted (they expire).
 */
export function checkoutSlot(
  repository: CheckoutRepository,
  read: string | (() => Promise<Stored<CheckoutRecord> | null>),
): VersionedSlot<Stored<CheckoutRecord>, CheckoutRecord> {
  return {
    read: typeof read === 'string' ? () => repository.getCheckout(read) : read,
    async insert(next) {
      return (await repository.insertCheckout(next)) ? { record: next, version: 1 } : null;
    },
    replace: (current, next) => repository.updateCheckout(current, next),
    remove() {
      throw new Error('a checkout is never deleted: it expires');
    },
  };
}
