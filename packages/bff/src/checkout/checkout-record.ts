/**
 * @module
 * A checkout and a quote as the BFF stores them, and the repository that reads and moves them. Every
 * change is a compare-and-set on the record's version, so two confirms (or two instances) can never both
 * move a checkout from `awaiting_payment` to `placing`.
 */
import {
  CheckoutFailureSchema,
  CheckoutModeSchema,
  CheckoutStatusSchema,
  DateTimeSchema,
  EnvironmentSchema,
  LocaleSchema,
  NonNegativeMoneySchema,
  PlanSchema,
  PurchaseKindSchema,
} from '@esim-embed/shared';
import { z } from 'zod';
import { STORE_KEYS, type Store } from '../store/store';

/** How long a checkout is kept after its last change (status reads, partner reconciliation). */
export const CHECKOUT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** A checkout as stored: the widget's view plus what only the BFF may know (wholesale price, order link). */
export const CheckoutRecordSchema = z.object({
  id: z.string(),
  widgetId: z.string(),
  environment: EnvironmentSchema,
  /** The session that created it (quotes of other sessions cannot be checked out). */
  sessionId: z.string(),
  /** The origin of that session; status reads must come from the same origin. */
  origin: z.string(),
  mode: CheckoutModeSchema,
  /** `issue` (a new eSIM) or `top_up` of `esimId`. */
  kind: PurchaseKindSchema.default('issue'),
  esimId: z.string().nullable().default(null),
  status: CheckoutStatusSchema,
  /** The upstream quote the order is placed from. */
  upstreamQuoteId: z.string(),
  amount: NonNegativeMoneySchema,
  /** The partner's wholesale cost: for spend caps and the partner API, never sent to a browser. */
  wholesale: NonNegativeMoneySchema,
  plan: PlanSchema,
  email: z.string().nullable(),
  locale: LocaleSchema,
  failure: CheckoutFailureSchema.nullable(),
  paymentReference: z.string().nullable(),
  order: z
    .object({
      id: z.string(),
      status: z.string(),
      /** The eSIM's link once issued (a link, not installation data). */
      esimResourceUrl: z.string().nullable(),
      /** The eSIM's id once issued. */
      esimId: z.string().nullable().default(null),
    })
    .nullable(),
  placement: z.object({
    attempts: z.int().min(0),
    /**
     * Until when (ms since the epoch) nobody else may call the upstream for this checkout: a worker's lease
     * while it places the order, or the pause before the next attempt after a postponed one.
     */
    leaseUntil: z.number().nullable(),
  }),
  /** When the order was last read from the upstream (ms since the epoch). */
  syncedAt: z.number().nullable(),
  expiresAt: DateTimeSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type CheckoutRecord = z.infer<typeof CheckoutRecordSchema>;

/** A quote as stored: bound to the session that asked for it. */
export const QuoteRecordSchema = z.object({
  id: z.string(),
  widgetId: z.string(),
  sessionId: z.string(),
  upstreamQuoteId: z.string(),
  offerId: z.string(),
  kind: PurchaseKindSchema.default('issue'),
  /** The eSIM a top-up quote is for. */
  esimId: z.string().nullable().default(null),
  plan: PlanSchema,
  price: NonNegativeMoneySchema,
  wholesale: NonNegativeMoneySchema,
  /** The checkout that used it, once one did. */
  checkoutId: z.string().nullable(),
  createdAt: DateTimeSchema,
  expiresAt: DateTimeSchema,
});
export type QuoteRecord = z.infer<typeof QuoteRecordSchema>;

/** A record and the version it was read at. */
export interface Stored<T> {
  record: T;
  version: number;
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

/** Told of every checkout written with a new status (webhooks, the background watch). */
export type CheckoutObserver = (before: CheckoutRecord | null, after: CheckoutRecord) => Promise<void>;

/** A {@link CheckoutRepository} over a {@link Store}; `observer` hears every status change that was written. */
export function createCheckoutRepository(store: Store, observer?: CheckoutObserver): CheckoutRepository {
  const observe = async (before: CheckoutRecord | null, after: CheckoutRecord) => {
    if (observer !== undefined && before?.status !== after.status) await observer(before, after);
  };
  return {
    async getCheckout(id) {
      const stored = await store.get(STORE_KEYS.checkout(id));
      if (stored === null) return null;
      return { record: CheckoutRecordSchema.parse(JSON.parse(stored.value)), version: stored.version };
    },
    async insertCheckout(record) {
      const ok = await store.insert(
        STORE_KEYS.checkout(record.id),
        JSON.stringify(record),
        CHECKOUT_RETENTION_MS,
      );
      if (ok) await observe(null, record);
      return ok;
    },
    async updateCheckout(current, next) {
      const updated = { ...next, updatedAt: new Date().toISOString() };
      const ok = await store.compareAndSet(
        STORE_KEYS.checkout(next.id),
        current.version,
        JSON.stringify(updated),
        CHECKOUT_RETENTION_MS,
      );
      if (!ok) return null;
      await observe(current.record, updated);
      return { record: updated, version: current.version + 1 };
    },
    async getQuote(id) {
      const stored = await store.get(STORE_KEYS.quote(id));
      if (stored === null) return null;
      return { record: QuoteRecordSchema.parse(JSON.parse(stored.value)), version: stored.version };
    },
    insertQuote: (record, ttlMs) => store.insert(STORE_KEYS.quote(record.id), JSON.stringify(record), ttlMs),
    updateQuote: (current, next, ttlMs) =>
      store.compareAndSet(STORE_KEYS.quote(next.id), current.version, JSON.stringify(next), ttlMs),
  };
}
