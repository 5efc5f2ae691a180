/**
 * @module
 * The one place the BFF keeps state: checkouts, quotes bound to sessions, idempotency records, rate-limit
 * counters and work queues. Values are opaque strings with a version and a time to live, so that the memory
 * and the Redis implementation behave the same and state transitions are atomic compare-and-set moves.
 */
import type { WorkQueue } from './work-queue';

/** A stored value and the version it had when read (1 on insert, +1 on every successful write). */
export interface Versioned {
  value: string;
  version: number;
}

/** A fixed-window counter after an increment. */
export interface CounterState {
  /** The counter's value after the increment. */
  count: number;
  /** Milliseconds until the window ends and the counter starts again at zero. */
  resetInMs: number;
}

/** The BFF's state behind one small interface: in memory for one instance, Redis for several. */
export interface Store {
  /** The value under `key`, or null when absent or expired. */
  get(key: string): Promise<Versioned | null>;
  /** Store `value` under `key` only if nothing is there; true when it was stored. */
  insert(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Replace the value only if its version is still `expectedVersion`; true when it was replaced.
   * The one way state transitions happen, so that two confirms can never both place an order.
   */
  compareAndSet(key: string, expectedVersion: number, value: string, ttlMs: number): Promise<boolean>;
  /** Delete `key` only if its version is still `expectedVersion`; true when it was deleted. */
  compareAndDelete(key: string, expectedVersion: number): Promise<boolean>;
  /** Add `by` to a fixed-window counter that starts (at zero) with the first increment and lives `windowMs`. */
  increment(key: string, by: number, windowMs: number): Promise<CounterState>;
  /**
   * The work queue called `name` (see `QUEUE_NAMES`): its own keyspace, shared by every instance on this store.
   * Asking twice for one name answers the same queue.
   */
  queue(name: string): WorkQueue;
  /**
   * The sorted index called `name`: members ordered by a score (a time), read newest first a page at a time.
   * Asking twice for one name reads and writes the same entries (the handle itself may be a new one: the embedded
   * store and Redis keep none per name). See {@link SortedIndex}.
   */
  sortedIndex(name: string): SortedIndex;
  /**
   * A page of the live keys that start with `prefix`, in no particular order: start with `cursor` null and pass
   * the answered cursor until it is null; about `count` keys a page. A key written or deleted meanwhile may or may
   * not be seen. For rebuilding an index once (at start, after an upgrade or a state import), never per request.
   */
  scanKeys(
    prefix: string,
    cursor: string | null,
    count: number,
  ): Promise<{ keys: string[]; cursor: string | null }>;
  /**
   * Take what deletes and overwrites left behind out of the store's files now (the embedded store: its sweep's
   * vacuum and `TRUNCATE` checkpoint), as an erasure does once done. Absent where nothing stays behind.
   */
  compact?(): Promise<void>;
  /** True when the store answers (readiness). */
  ping(): Promise<boolean>;
  /** Release connections and timers. */
  close(): Promise<void>;
}

/** One member of a {@link SortedIndex} and its score. */
export interface IndexEntry {
  member: string;
  score: number;
}

/** What one {@link SortedIndex.range} reads. */
export interface IndexRange {
  /** The lowest score read (inclusive); `-Infinity` for none. */
  fromScore: number;
  /** The highest score read (inclusive); `Infinity` for none. */
  toScore: number;
  /** Start strictly after this entry in the index's order (the last one of the page before), or at the top. */
  after: IndexEntry | null;
  /** At most this many entries. */
  limit: number;
}

/**
 * Members (ids) ordered by score, then by member, read from the highest down: what a list of the partner API
 * pages through by keyset, so that a page costs O(log n + limit) and members added meanwhile never shift it.
 * Each member lives its own time: an expired one is not read, and is dropped as the index is read or swept.
 */
export interface SortedIndex {
  /** Put `member` at `score` (moved when it is there), living `ttlMs` from now. */
  add(member: string, score: number, ttlMs: number): Promise<void>;
  /** Take `member` out; no-op when it is not there. */
  remove(member: string): Promise<void>;
  /**
   * The live entries with `fromScore ≤ score ≤ toScore`, highest (score, member) first, strictly after `after`;
   * at most `limit`, and fewer only when no more follow.
   */
  range(range: IndexRange): Promise<IndexEntry[]>;
}

/** True when `entry` comes strictly after `after` in an index's order (highest score, then member, first). */
export function comesAfter(entry: IndexEntry, after: IndexEntry | null): boolean {
  if (after === null) return true;
  return entry.score < after.score || (entry.score === after.score && entry.member < after.member);
}

/**
 * The store cannot be reached or did not answer in time. Thrown by a store's operations instead of waiting; the
 * BFF answers `store_unavailable` (503 with `Retry-After`). A write is then as if not made, except one that Redis
 * applied just before its connection broke: every write is a single compare-and-set, so that one is whole too.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Key prefixes, in one place so that Redis keys read as the product's words. */
export const STORE_KEYS = {
  checkout: (id: string) => `checkout:${id}`,
  quote: (id: string) => `quote:${id}`,
  idempotency: (scope: string, key: string) => `idempotency:${scope}:${key}`,
  counter: (name: string) => `counter:${name}`,
  /** The widget (and checkout) that sold one eSIM: partner routes reach only their own widgets' eSIMs. */
  esimOwner: (esimId: string) => `esim-owner:${esimId}`,
  /** The widget that made one delivery link: a partner revokes only its own widgets' links. */
  deliveryLinkMaker: (linkId: string) => `delivery-link-maker:${linkId}`,
  /** A signed manage token of the release before, revoked by id (kept until the token would have expired). */
  manageRevocation: (tokenId: string) => `manage-revoked:${tokenId}`,
  /** One manage link, under the SHA-256 of its token (never the token itself). */
  manageLink: (tokenHash: string) => `manage-link:${tokenHash}`,
  /** The current manage link of one eSIM in one widget (its record's key and its token, sealed). */
  manageLinkCurrent: (widgetId: string, esimId: string) => `manage-link-current:${widgetId}:${esimId}`,
  /** Manage tokens of this eSIM issued until this time (ms) are refused (revoke-all). */
  manageNotBefore: (esimId: string) => `manage-not-before:${esimId}`,
  /** One webhook delivery (its event, attempts and next attempt time). */
  webhookDelivery: (id: string) => `webhook-delivery:${id}`,
  /**
   * The release before's JSON list of the webhook deliveries still to make: moved onto the work queue at start
   * (`QUEUE_NAMES` in `work-queue.ts`) and deleted. The two below are the same for the watches.
   */
  legacyWebhookQueue: () => 'webhook-queue',
  legacyCheckoutWatch: () => 'checkout-watch',
  /** The consecutive failures of one widget's webhook endpoint (its circuit: how long its deliveries pause). */
  webhookCircuit: (widgetId: string) => `webhook-circuit:${widgetId}`,
  /** Where the next reconciliation pass reads one upstream credential's orders from. */
  orderReconciliation: (credential: string) => `order-reconciliation:${credential}`,
  /** Until when (ms, as the value) the upstream asked one credential to pause (a 429's `Retry-After`). */
  upstreamPause: (credential: string) => `upstream-pause:${credential}`,
  /** The live quote of one session for one offer (its id), reused for a second quote of the same offer. */
  sessionQuote: (sessionId: string, offer: string) => `session-quote:${sessionId}:${offer}`,
  /** The checkout (and widget) an upstream order reference — a checkout id — belongs to, kept past the checkout. */
  orderReference: (externalRef: string) => `order-reference:${externalRef}`,
  /** An upstream order without a checkout that was reported (so it is reported once, by one instance). */
  reportedOrder: (credential: string, orderId: string) => `order-reported:${credential}:${orderId}`,
  /** What this BFF promised out of one upstream account's balance to open checkouts (the reservation ledger). */
  fundingLedger: (account: string) => `funding-ledger:${account}`,
  /** Set while one widget's spendable balance is below its `account.balance_low` threshold. */
  balanceLow: (widgetId: string) => `balance-low:${widgetId}`,
  /** Whether one widget sells, as last told its partner (`widget.sales_stopped` / `widget.sales_resumed`). */
  widgetSales: (widgetId: string) => `widget-sales:${widgetId}`,
  /** One sale of the partner's ledger (no personal data), by its checkout's id: kept long after the checkout. */
  sale: (checkoutId: string) => `sale:${checkoutId}`,
  /** A help request the partner made through this BFF: its widget, eSIM and last status seen. */
  actionRequest: (id: string) => `action-request:${id}`,
  legacyActionRequestWatch: () => 'action-request-watch',
  /** The receipt and progress of one erasure of a traveller's data (`privacy/`): ids and counts, no address. */
  privacyErasure: (id: string) => `privacy-erasure:${id}`,
  /** When (ms, as the value) a widget was first found gone from the config: its travellers are erased after a period. */
  removedWidget: (widgetId: string) => `removed-widget:${widgetId}`,
  /** Set once one eSIM's traveller was erased: its manage links answer `erased` (kept as long as an eSIM lives). */
  esimErased: (esimId: string) => `esim-erased:${esimId}`,
  /** One console user (`console/console-users.ts`): name, partner, role, password hash, sealed second factor. */
  consoleUser: (userId: string) => `console-user:${userId}`,
  /** The console user a sign-in name belongs to, by the name's keyed digest (never the name). */
  consoleUsername: (digest: string) => `console-username:${digest}`,
  /** One console session, under the SHA-256 of its cookie's token (never the token itself). */
  consoleSession: (tokenHash: string) => `console-session:${tokenHash}`,
  /** One entry of a partner's console audit log. */
  consoleAudit: (entryId: string) => `console-audit:${entryId}`,
  /** The eSIM that replaced one of an upstream account's eSIMs (a completed reissue), by credential digest. */
  esimReplacement: (credential: string, esimId: string) => `esim-replacement:${credential}:${esimId}`,
  /**
   * Set once every stored record of one kind is in the partner lists' indexes (`store/index-rebuild.ts`):
   * absent after an upgrade from a release without them or a state import, and then built at start. Never exported.
   */
  indexBuilt: (kind: IndexedKind, version?: string) =>
    version === undefined ? `${kind}-index-built` : `${kind}-index-built:${version}`,
  /** Held by the one instance building one kind's indexes (a short lease, renewed while it works). Never exported. */
  indexBuildLease: (kind: IndexedKind) => `${kind}-index-build-lease`,
} as const;

/** The kinds of record the partner lists index (each built once at start after an upgrade or an import). */
export const INDEXED_KINDS = [
  'checkout',
  'webhook-delivery',
  'action-request',
  // The ledger's sales: indexed from their records, and made from the checkouts a release before it sold.
  'sale',
  'checkout-sale',
] as const;
export type IndexedKind = (typeof INDEXED_KINDS)[number];

/** True for the keys of the index builds (marks and leases): they stay with their store, never exported. */
export const isIndexBuildKey = (key: string): boolean =>
  INDEXED_KINDS.some(
    (kind) =>
      key === STORE_KEYS.indexBuilt(kind) ||
      key.startsWith(STORE_KEYS.indexBuilt(kind, '')) ||
      key === STORE_KEYS.indexBuildLease(kind),
  );

/**
 * The sorted indexes of the partner API's lists (`SortedIndex`), one set per widget (a partner's lists read its
 * widgets'): its checkouts, by status, by traveller e-mail, by eSIM, by payment reference, and the eSIMs it sold.
 * Exact values are named by their keyed digest (`digest`: `checkout/checkout-index.ts` names them), never as such:
 * an e-mail address is never part of a name, nor anything a dictionary of addresses reverses.
 */
export const STORE_INDEXES = {
  checkouts: (widgetId: string) => `checkouts:${widgetId}`,
  checkoutsByStatus: (widgetId: string, status: string) => `checkouts:${widgetId}:status:${status}`,
  checkoutsByEmail: (widgetId: string, digest: string) => `checkouts:${widgetId}:email:${digest}`,
  checkoutsByEsim: (widgetId: string, digest: string) => `checkouts:${widgetId}:esim:${digest}`,
  checkoutsByPaymentReference: (widgetId: string, digest: string) =>
    `checkouts:${widgetId}:payment-reference:${digest}`,
  esims: (widgetId: string) => `esims:${widgetId}`,
  /** One widget's sales ledger (score: when each sale was paid), and its sales by eSIM and by payment reference. */
  sales: (widgetId: string) => `sales:${widgetId}`,
  salesByEsim: (widgetId: string, digest: string) => `sales:${widgetId}:esim:${digest}`,
  salesByPaymentReference: (widgetId: string, digest: string) =>
    `sales:${widgetId}:payment-reference:${digest}`,
  /** A partner's console users (score: when each was added), by the partner's id (its first widget's). */
  consoleUsers: (partnerId: string) => `console-users:${partnerId}`,
  /** A partner's console audit log (score: when each action was taken). */
  consoleAudit: (partnerId: string) => `console-audit:${partnerId}`,
} as const;
