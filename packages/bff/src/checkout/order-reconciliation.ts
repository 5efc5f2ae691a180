/**
 * @module
 * Every upstream order belongs to a checkout a traveller can reach. At start-up and every minute, each instance
 * reads the recent orders of every upstream account its widgets sell through: an order whose checkout never linked
 * it (its placing instance died, its answer was lost, a lookup missed it) is adopted by that checkout, which moves
 * on and delivers its eSIM; an order under a reference that no checkout of this BFF ever had (or that its checkout
 * never placed) is reported once — a log line and a signed `order.unmatched` event to the widgets of that account. A
 * checkout's reference outlives its record (order-references.ts), so the order of a checkout that expired is never
 * taken for a foreign one; the order of a checkout gone before its retention ended (lost with the store: a backup
 * restored from before it, a failover) is reported like a foreign one, since no traveller or partner can reach it. A finished (`ready`) checkout whose order moved on since it was last read
 * (a later `stateRevision`: refunded by the upstream on its own or at the partner's direct request, its billing
 * changed) takes the order as it is now through the one repository, so a refund ends the checkout and sends
 * `checkout.cancelled` and `checkout.refunded` without anyone reading it (event ids per checkout and status: one
 * delivery whichever instance saw it first). Such a change is seen while the order is within the pass's window (the
 * look-back when an account is first read, the overlap before the last pass after that). Where to resume reading is
 * kept per account in the store, so a busy account is read through in bounded pages over several passes, and every
 * instance may run the same pass without doing anything twice.
 *
 * Over 300 lines: one pass reads, adopts, follows and reports the orders of an account, around its kept
 * progress.
 */

import type { Order } from '@esim-embed/shared';
import { z } from 'zod';
import { createBackgroundLoop } from '../background-loop';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import { leaveValue, storeSlot, versionedUpdate, writeValue } from '../store/versioned-update';
import type { UpstreamClient } from '../upstream/upstream-client';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type CheckoutRecord, type CheckoutRepository, checkoutSlot, type Stored } from './checkout-record';
import { withOrder } from './order-placement';
import { ACTION_REQUEST_REF_PREFIX, type OrderReferences } from './order-references';

/** How often a pass runs. */
const DEFAULT_INTERVAL_MS = 60_000;
/** How far back the first pass of an account reads (checkouts outlive this by far). */
const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Each pass reads again this much before where the last one stopped: orders listed late are not skipped. */
const OVERLAP_MS = 10 * 60 * 1000;
/** Orders per page and pages per account and pass: a pass stays bounded whatever the backlog. */
const PAGE_LIMIT = 100;
const MAX_PAGES = 10;
/** How long an order reported once is remembered (well past the look-back, so it is never reported again). */
const REPORTED_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;
const PROGRESS_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Checkouts that may still take their order: being placed, or failed without one (the order came after all). */
const ADOPTING_STATUSES: ReadonlySet<string> = new Set(['placing', 'failed']);

const ProgressSchema = z.object({ readFromMs: z.number() });

export interface OrderReconciliationOptions {
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The checkouts (an adopted checkout's change of status sets off its webhooks and the watch). */
  repository: CheckoutRepository;
  /** Which checkout each order reference belonged to, kept past the checkout record. */
  orderReferences: Pick<OrderReferences, 'ownerOf' | 'keptAt'>;
  /**
   * Tell one widget's partner about an order no checkout owns (the `order.unmatched` webhook, queued by
   * `webhooks/webhook-events.ts`); idempotent for one widget and order.
   */
  reportUnmatched: (widget: WidgetRuntime, order: Order, time: number) => Promise<void>;
  logger: Logger;
  /**
   * True for a reference this BFF made as a checkout id (`CheckoutSecrets.madeCheckoutId`): an order under one whose
   * records are all gone was lost by the store (a Redis failover), not made elsewhere. Absent: none is told apart.
   */
  madeHere?: ((externalRef: string) => boolean) | undefined;
  /**
   * How long after such an order its traveller's retry may still make its checkout again (a session's lifetime: a
   * retry needs a live session) — until then it is not reported. Default 15 minutes.
   */
  retryWindowMs?: number | undefined;
  /** Default 60 s. */
  intervalMs?: number;
  /** How far back an account never read before is read. Default 24 h. */
  lookbackMs?: number;
  now?: () => number;
}

/**
 * What reconciliation makes of one upstream order. `unstored`: ours, its checkout expired; `lost`: ours, its
 * checkout gone before it could have expired (its reference says so), or every record of it gone (its id is one
 * this BFF made).
 */
type Adoption = 'linked' | 'adopted' | 'followed' | 'orphan' | 'unstored' | 'lost';

/** The longest a session lives: the retry window's default. */
const DEFAULT_RETRY_WINDOW_MS = 15 * 60 * 1000;

/** What one pass did. */
export interface ReconciliationPass {
  read: number;
  adopted: number;
  /** Finished checkouts that took a later state of their order (a refund from outside this BFF). */
  followed: number;
  reported: number;
}

/** The reconciliation loop. */
export interface OrderReconciliation {
  /** One pass over every account (the loop calls this; tests may too). */
  run(): Promise<ReconciliationPass>;
  /** A pass now, then one every interval. */
  start(): void;
  /** Stop the passes; resolves once a pass under way (the loop's, or one asked for) has finished. */
  close(): Promise<void>;
}

/** The widgets that sell through one upstream credential, and that credential's client. */
interface UpstreamAccount {
  credential: string;
  upstream: UpstreamClient;
  widgets: WidgetRuntime[];
}

/** The {@link OrderReconciliation}. */
export function createOrderReconciliation(options: OrderReconciliationOptions): OrderReconciliation {
  const { store, widgets, repository, orderReferences, reportUnmatched, logger } = options;
  const now = options.now ?? Date.now;
  const lookbackMs = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const retryWindowMs = options.retryWindowMs ?? DEFAULT_RETRY_WINDOW_MS;
  // A lost checkout's order left unreported within its retry window is read again by a pass after the window.
  const overlapMs = Math.max(OVERLAP_MS, retryWindowMs + 2 * intervalMs);
  // The orders this instance has said something of that every pass reading them would say again (a lost
  // checkout's, until its retry window ends; an expired checkout's, while passes read it): said once an order, not
  // once a pass (fifteen in a window of a pass a minute).
  const told = new Map<string, number>();
  /** True the first time `message` is about `orderId` (remembered until `untilMs`). */
  const firstTime = (message: string, orderId: string, untilMs: number) => {
    const key = `${message}\n${orderId}`;
    if (told.has(key)) return false;
    told.set(key, untilMs);
    return true;
  };
  const accounts = new Map<string, UpstreamAccount>();
  for (const widget of widgets.values()) {
    const { credential } = widget.upstream;
    const account = accounts.get(credential) ?? { credential, upstream: widget.upstream, widgets: [] };
    account.widgets.push(widget);
    accounts.set(credential, account);
  }

  /** Whether a stored checkout is the one `order` names, sold through `account`. */
  function sellsThrough(account: UpstreamAccount, order: Order, stored: Stored<CheckoutRecord>): boolean {
    if (stored.record.id !== order.externalRef) return false;
    // Matched through the checkout record: it may belong to any widget of the account, never to another's.
    return widgets.get(stored.record.widgetId)?.upstream.credential === account.credential;
  }

  /**
   * What became of the checkout `order` names, sold through `account`, whose record is gone: `unstored` (it
   * expired), `lost` (it cannot have expired yet, or its reference went with it but its id is one this BFF made)
   * or `orphan` (no checkout of this BFF ever had its reference).
   */
  async function whyGone(account: UpstreamAccount, order: Order): Promise<Adoption> {
    const owner = await orderReferences.ownerOf(order.externalRef);
    if (owner === null) return options.madeHere?.(order.externalRef) ? 'lost' : 'orphan';
    if (widgets.get(owner.widgetId)?.upstream.credential !== account.credential) return 'orphan';
    return orderReferences.keptAt(owner, order.createdAt, now()) ? 'lost' : 'unstored';
  }

  /**
   * Link `order` to its checkout; or say that its checkout is no longer stored (`unstored`: ours, nothing to
   * do; `lost`: ours, to be reported), or that it is an orphan: no checkout of this BFF owns it.
   */
  async function adopt(account: UpstreamAccount, order: Order): Promise<Adoption> {
    let statusBefore = '';
    const outcome = await versionedUpdate(checkoutSlot(repository, order.externalRef), async (stored) => {
      if (stored === null) return leaveValue<Adoption>(await whyGone(account, order));
      if (!sellsThrough(account, order, stored)) return leaveValue<Adoption>('orphan');
      const record = stored.record;
      if (record.order !== null) {
        if (record.order.id === order.id) {
          // A sale this BFF no longer follows, whose order changed since (a refund asked elsewhere).
          if (record.status === 'ready' && (record.order.stateRevision ?? 0) < order.stateRevision) {
            return writeValue<CheckoutRecord, Adoption>(withOrder(record, order, now()), 'followed');
          }
          return leaveValue<Adoption>('linked');
        }
        // Every attempt carries one Idempotency-Key: never expected, and loud so that it is looked at.
        logger.error('more than one upstream order for one checkout', {
          checkoutId: record.id,
          orderIds: [record.order.id, order.id],
        });
        return leaveValue<Adoption>('orphan');
      }
      if (!ADOPTING_STATUSES.has(record.status)) return leaveValue<Adoption>('orphan');
      statusBefore = record.status;
      return writeValue<CheckoutRecord, Adoption>(withOrder(record, order, now()), 'adopted');
    });
    if (outcome.kind === 'left') return outcome.result;
    if (outcome.kind === 'written' && outcome.result === 'followed') {
      const { record } = outcome.stored;
      logger.info('a finished checkout took a later state of its order', {
        checkoutId: record.id,
        widgetId: record.widgetId,
        orderId: order.id,
        orderStatus: order.status,
        status: record.status,
      });
      return 'followed';
    }
    if (outcome.kind === 'written') {
      const { record } = outcome.stored;
      logger.warn('upstream order adopted by its checkout', {
        checkoutId: record.id,
        widgetId: record.widgetId,
        orderId: order.id,
        statusBefore,
        status: record.status,
      });
      return 'adopted';
    }
    // The checkout kept changing (its placement is at work): the next pass looks again.
    return 'linked';
  }

  /**
   * Tell the account's widgets once about an order no checkout owns (`lost`: its checkout was ours and is gone
   * before its time); true when this call told them.
   */
  async function report(account: UpstreamAccount, order: Order, lost: boolean): Promise<boolean> {
    const key = STORE_KEYS.reportedOrder(account.credential, order.id);
    if ((await store.get(key)) !== null) return false;
    const time = now();
    const told: string[] = [];
    for (const widget of account.widgets) {
      if (widget.config.webhookUrl === undefined || widget.webhookSecret === undefined) continue;
      await reportUnmatched(widget, order, time);
      told.push(widget.config.id);
    }
    // Remembered only once queued: an instance dying in between leaves it to the next pass (same event ids).
    if (!(await store.insert(key, String(time), REPORTED_RETENTION_MS))) return false;
    logger.warn('upstream order without a checkout', {
      orderId: order.id,
      externalRef: order.externalRef,
      orderStatus: order.status,
      createdAt: order.createdAt,
      widgetIds: told,
      checkoutLost: lost,
    });
    return true;
  }

  /** Move where the next pass starts forward (never back: another instance may be further on). */
  async function advance(key: string, readFromMs: number): Promise<void> {
    await versionedUpdate(storeSlot(store, key, PROGRESS_RETENTION_MS), (stored) =>
      stored !== null && ProgressSchema.parse(JSON.parse(stored.value)).readFromMs >= readFromMs
        ? leaveValue(null)
        : writeValue(JSON.stringify({ readFromMs }), null),
    );
  }

  async function reconcileAccount(account: UpstreamAccount, pass: ReconciliationPass): Promise<void> {
    const progressKey = STORE_KEYS.orderReconciliation(account.credential);
    const startedAt = now();
    const progress = await store.get(progressKey);
    const stopped = progress === null ? null : ProgressSchema.parse(JSON.parse(progress.value)).readFromMs;
    const sinceMs = Math.max(startedAt - lookbackMs, stopped === null ? 0 : stopped - overlapMs);
    let newestMs = sinceMs;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await account.upstream.listRecentOrders({
        createdSince: new Date(sinceMs).toISOString(),
        cursor,
        limit: PAGE_LIMIT,
      });
      for (const order of answer.data) {
        const createdMs = Date.parse(order.createdAt);
        // The filter is our assumption: an upstream that ignores it lists older orders too.
        if (!(createdMs >= sinceMs)) continue;
        newestMs = Math.max(newestMs, createdMs);
        pass.read += 1;
        // A reissue's replacement order is named by the help request this BFF made, not by a checkout.
        if (order.externalRef.startsWith(ACTION_REQUEST_REF_PREFIX)) continue;
        const outcome = await adopt(account, order);
        if (outcome === 'adopted') pass.adopted += 1;
        if (outcome === 'followed') pass.followed += 1;
        if (outcome === 'lost' && now() - createdMs < retryWindowMs) {
          // Its checkout's records were lost (a Redis failover, a backup restored from before it) after the order
          // was placed: the traveller's retry makes that checkout again under the same id, which then links the
          // order. Reported only if none comes.
          if (firstTime('lost', order.id, createdMs + retryWindowMs)) {
            logger.warn("upstream order of a checkout the store lost: left to its traveller's retry", {
              orderId: order.id,
              externalRef: order.externalRef,
            });
          }
          continue;
        }
        const orphaned = outcome === 'orphan' || outcome === 'lost';
        if (orphaned && (await report(account, order, outcome === 'lost'))) pass.reported += 1;
        // A sale of ours whose checkout expired or was lost: not an unmatched order, nothing to send. Passes read
        // it again for as long as it is in their window (the look-back of an account's first pass at most).
        if (outcome === 'unstored' && firstTime('unstored', order.id, createdMs + lookbackMs + overlapMs)) {
          logger.info('upstream order of a checkout no longer stored', {
            orderId: order.id,
            externalRef: order.externalRef,
          });
        }
      }
      if (!answer.meta.hasMore || !answer.meta.nextCursor) {
        // Read to the end: the next pass starts from here (less the overlap).
        await advance(progressKey, startedAt);
        return;
      }
      cursor = answer.meta.nextCursor;
    }
    // A backlog longer than one pass: the next one goes on from the newest order read (without the overlap,
    // which could hold more than a pass's worth and never move on).
    await advance(progressKey, newestMs + overlapMs);
  }

  let running: Promise<ReconciliationPass> | undefined;

  const reconciliation: OrderReconciliation = {
    run() {
      // One pass at a time per instance: a slow upstream must not stack passes up.
      running ??= (async () => {
        const pass: ReconciliationPass = { read: 0, adopted: 0, followed: 0, reported: 0 };
        const time = now();
        for (const [key, untilMs] of told) if (untilMs <= time) told.delete(key);
        try {
          for (const account of accounts.values()) {
            try {
              await reconcileAccount(account, pass);
            } catch (error) {
              logger.warn('upstream orders could not be reconciled', {
                widgetIds: account.widgets.map((widget) => widget.config.id),
                cause: String(error),
              });
            }
          }
          logger.debug('upstream orders reconciled', { ...pass });
          return pass;
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
    start() {
      loop.start();
    },
    async close() {
      // A pass that fails is its caller's to report (the loop logs its own).
      await Promise.allSettled([loop.close(), running]);
    },
  };
  const loop = createBackgroundLoop(() => reconciliation.run(), {
    intervalMs,
    runAtStart: true,
    logger,
    failure: 'order reconciliation failed',
  });
  return reconciliation;
}
