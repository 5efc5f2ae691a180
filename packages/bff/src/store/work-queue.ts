/**
 * @module
 * A queue of ids due at a time, kept by the store (memory, the embedded database on disk, Redis): webhook
 * deliveries, checkouts to watch, help requests to follow, checkout reactions to retry, installation emails to send. Each item is an id in a
 * partition (for example a partner's webhook endpoint); every operation touches only the items it names or a
 * bounded batch of due ones, so what a call costs never depends on how many items wait (no stored value grows
 * with the backlog, and an idle instance reads nothing but the head of the queue).
 *
 * A claimed item is leased: its due time moves to `now + leaseMs`, so no other instance claims it meanwhile, and
 * it comes back by itself when its claimer dies before finishing (it is delivered at least once).
 */

/** One item of a {@link WorkQueue}. */
export interface QueueItem {
  /** Unique within its queue (a delivery's event id, a checkout id). */
  id: string;
  /** The group it is fair within and paused with: one partner's endpoint, one widget. */
  partition: string;
  /** When it is due, ms since the epoch. */
  dueAtMs: number;
}

/** What one `claim` may take. */
export interface ClaimOptions {
  /** At most this many items in all. */
  limit: number;
  /** At most this many items of one partition (so one busy partition cannot take a whole batch). */
  perPartition: number;
  /** How long a claimed item is held for its claimer (its due time becomes `nowMs + leaseMs`). */
  leaseMs: number;
}

/** A queue of due ids in the store. */
export interface WorkQueue {
  /**
   * Put an item on the queue unless its id is there already (then nothing changes); true when added.
   * Costs O(log n).
   */
  add(item: QueueItem): Promise<boolean>;
  /**
   * Take the due items (due at or before `nowMs`) of partitions that are not paused, leasing each: partitions in
   * the order of their earliest due item, at most `perPartition` from each, `limit` in all. Answers each item as
   * it is after the claim (its `dueAtMs` is the lease's end). Costs O(limit · log n), never O(n).
   */
  claim(nowMs: number, options: ClaimOptions): Promise<QueueItem[]>;
  /** Move a queued item's due time (a retry's backoff; ends its lease). No-op when the id is not queued. */
  reschedule(id: string, dueAtMs: number): Promise<void>;
  /**
   * Claim nothing of `partition` before `untilMs` (the circuit of a partner's endpoint that is down: its items
   * wait without being read, while other partitions go on). A later pause replaces an earlier one.
   */
  pausePartition(partition: string, untilMs: number): Promise<void>;
  /** Take an item off the queue (done, or given up). No-op when the id is not queued. */
  remove(id: string): Promise<void>;
  /** The item under `id`, or null when it is not queued. */
  get(id: string): Promise<QueueItem | null>;
  /** How many items wait, and when (metrics; O(1) or O(log n)). */
  stats(): Promise<QueueStats>;
  /**
   * A page of the queue's items in no particular order: start with `cursor` null and pass the answered cursor
   * until it is null. About `count` items a page; an item added or removed meanwhile may or may not be seen, the
   * others are seen once. For exports and bounded samples (a metric), never for finding due work.
   */
  scan(cursor: string | null, count: number): Promise<{ items: QueueItem[]; cursor: string | null }>;
}

/** What {@link WorkQueue.stats} answers. */
export interface QueueStats {
  /** Items on the queue (leased or not, paused or not). */
  size: number;
  /**
   * The earliest time a claim can take an item: the lowest due time, where a paused partition's items count from
   * the pause's end. Null when the queue is empty.
   */
  nextClaimableAtMs: number | null;
  /**
   * When the item that has waited longest was added (ms since the epoch, the store's clock); a reschedule or a
   * lease does not change it. Null when the queue is empty. The age of the backlog, for metrics and alerts.
   */
  oldestAddedAtMs: number | null;
}

/** The names of the BFF's queues, in one place (each is its own keyspace in the store). */
export const QUEUE_NAMES = {
  /** Webhook deliveries still to make; partition: the widget whose endpoint receives them. */
  webhookDeliveries: 'webhook-deliveries',
  /** Checkouts still moving, read in the background; partition: the widget. */
  checkoutWatch: 'checkout-watch',
  /** Help requests not yet completed or rejected; partition: the widget. */
  actionRequestWatch: 'action-request-watch',
  /** Installation emails still to send (`mail/`), by checkout id; partition: the widget. */
  installationEmails: 'installation-emails',
  /** Erasures of a traveller's data the partner asked for (`privacy/`), by erasure id; partition: the partner. */
  privacyErasures: 'privacy-erasures',
} as const;
