/**
 * @module
 * The partner's sales ledger kept as its sales move: every write of a checkout that changes what the ledger shows
 * writes the sale's record (`sale-record.ts`) under `STORE_KEYS.sale`, in the store the BFF runs on (memory,
 * embedded or Redis), living `retention.salesLedgerDays` after its last change — long after the checkout's 30 days. The
 * checkouts' transitions call {@link SalesLedger.follow}: on each change of status as one of its reactions (done
 * again by the watch until it succeeds, so a crash after the checkout's write loses nothing), and on a write that
 * keeps the status but changes the order, eSIM or payment reference. Each record is in its widget's sorted indexes
 * (all sales by payment time, by eSIM, by payment reference), added to before the record is written so that a
 * crash never leaves a sale out of a list; a list checks every record it reads.
 */
import { createHash } from 'node:crypto';
import { type CheckoutRecord, readCheckoutRecord, type Stored } from '../checkout/checkout-record';
import type { IndexedRecords } from '../store/index-rebuild';
import { STORE_INDEXES, STORE_KEYS, type Store } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import type { FunnelCounters } from './funnel-counters';
import {
  readSaleRecord,
  refundedSale,
  type SaleRecord,
  saleOf,
  saleViewChanged,
  writtenSale,
} from './sale-record';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The digest that names a sale's index of an exact value (its eSIM id, its payment reference): SHA-256, unkeyed.
 * Neither value is a person's datum (the checkout's own indexes, which name e-mail addresses, are keyed:
 * `checkout/checkout-index.ts`); an unkeyed name survives a rotation of the root secret for the ledger's 400 days.
 */
export const saleIndexDigest = (value: string) => createHash('sha256').update(value).digest('base64url');

export interface SalesLedgerOptions {
  store: Store;
  /** How long a sale is kept after its last change (`retention.salesLedgerDays`). */
  retentionMs: number;
  /** The BFF's clock: the times a sale is seen paid, ready, refunded. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Counts the funnel's `paid` step once per sale, as its record is first written. */
  funnel?: FunnelCounters | undefined;
}

/** Keeps the ledger with the checkouts. */
export interface SalesLedger {
  /**
   * Bring the sale of `after` (a checkout as just written) up to date. With `before` (the checkout as it was),
   * nothing is read unless the write changed what the ledger shows; without, the stored sale is compared.
   */
  follow(before: CheckoutRecord | null, after: Stored<CheckoutRecord>): Promise<void>;
  /**
   * The order of a sale whose checkout is no longer kept was seen refunded (a help request's refund completed):
   * its record says so. No-op when the ledger holds no such sale.
   */
  refundSeen(checkoutId: string): Promise<void>;
  /**
   * The index builds at start: the sales' indexes from their records (after a state import), and the sales of
   * the checkouts a release before the ledger stored.
   */
  readonly indexedRecords: readonly [IndexedRecords<SaleRecord>, IndexedRecords<CheckoutRecord>];
}

/** Every index a sale is in. */
export function saleIndexNames(sale: SaleRecord): string[] {
  const names = [STORE_INDEXES.sales(sale.widgetId)];
  if (sale.esimId !== null)
    names.push(STORE_INDEXES.salesByEsim(sale.widgetId, saleIndexDigest(sale.esimId)));
  if (sale.paymentReference !== null) {
    names.push(STORE_INDEXES.salesByPaymentReference(sale.widgetId, saleIndexDigest(sale.paymentReference)));
  }
  return names;
}

/** A sale's place in its indexes: when it was paid (ms). */
export const saleScore = (sale: Pick<SaleRecord, 'paidAt'>) => Date.parse(sale.paidAt);

/** The {@link SalesLedger} of `store`. */
export function createSalesLedger(options: SalesLedgerOptions): SalesLedger {
  const { store, retentionMs } = options;
  const now = options.now ?? Date.now;
  // A membership outlives the record a little: a list drops it once the record has gone.
  const indexTtlMs = retentionMs + DAY_MS;

  async function index(sale: SaleRecord): Promise<void> {
    const score = saleScore(sale);
    await Promise.all(
      saleIndexNames(sale).map((name) => store.sortedIndex(name).add(sale.checkoutId, score, indexTtlMs)),
    );
  }

  /** Write the sale `decide` makes of the stored one (null: leave it), indexed first. */
  async function update(checkoutId: string, decide: (stored: SaleRecord | null) => SaleRecord | null) {
    const outcome = await versionedUpdate(
      storeSlot(store, STORE_KEYS.sale(checkoutId), retentionMs),
      async (current) => {
        const next = decide(current === null ? null : readSaleRecord(current.value));
        if (next === null) return leaveValue(null);
        await index(next);
        return writeValue(writtenSale(next), current === null ? next : null);
      },
    );
    // A sale's record is inserted once, whoever retries: the one insert counts it paid, on the day it was.
    if (outcome.kind === 'written' && outcome.result !== null) {
      await options.funnel?.count(outcome.result.widgetId, 'paid', Date.parse(outcome.result.paidAt));
    }
    // Thrown, so that the reaction that asked is done again (the watch), never taken for done.
    if (outcome.kind === 'contended') {
      throw new Error(`the sale of ${checkoutId} changed under every attempt: it is written again later`);
    }
  }

  const follow: SalesLedger['follow'] = async (before, after) => {
    if (before !== null && !saleViewChanged(before, after.record)) return;
    await update(after.record.id, (stored) => saleOf(after, stored, now()));
  };

  return {
    follow,
    refundSeen: (checkoutId) => update(checkoutId, (stored) => stored && refundedSale(stored, now())),
    indexedRecords: [
      {
        kind: 'sale',
        prefix: STORE_KEYS.sale(''),
        read: readSaleRecord,
        async index(sale) {
          await index(sale);
          return true;
        },
      },
      {
        kind: 'checkout-sale',
        prefix: STORE_KEYS.checkout(''),
        read: readCheckoutRecord,
        async index(checkout) {
          // Its version is not known here: it makes a sale only where the ledger has none.
          await follow(null, { record: checkout, version: 0 });
          return true;
        },
      },
    ],
  };
}
