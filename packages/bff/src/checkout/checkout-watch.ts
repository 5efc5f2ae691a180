/**
 * @module
 * The background watch: checkouts that are still moving (awaiting payment, placing, provisioning) are read
 * from the upstream every few seconds even when no traveller polls them, so that every status change is
 * observed — and its webhook sent — after the tab is closed; and a checkout whose reactions to a change are
 * still due (checkout-transitions.ts) has them done again until they are, whatever its status. The watched ids
 * are on a work queue in the store, each due at its next read and partitioned by widget: a sweep claims due ones
 * in bounded batches (leased, so two instances never read one checkout at once, and one that dies leaves its
 * batch to the others).
 */
import { CHECKOUT_TERMINAL_STATUSES } from '@esim-embed/shared';
import { type BackgroundLoop, createBackgroundLoop } from '../background-loop';
import type { Logger } from '../logger';
import { legacyIdListMover } from '../store/legacy-id-list';
import { STORE_KEYS, type Store } from '../store/store';
import { QUEUE_NAMES } from '../store/work-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type CheckoutRecord, readCheckoutRecord } from './checkout-record';
import type { CheckoutService } from './checkout-service';

/** Checkouts claimed at once, in all and of one widget. */
const BATCH = { limit: 200, perPartition: 50 } as const;
/** Batches one sweep claims at most (the rest wait for the next sweep). */
const BATCHES_PER_SWEEP = 25;
/** How long a claimed checkout is held for its reader (it comes back by itself after an instance dies). */
const LEASE_MS = 60_000;

export interface CheckoutWatchOptions {
  store: Store;
  logger: Logger;
  /** How often the watched checkouts are read. */
  intervalMs: number;
  /**
   * Does the reactions still due on a watched checkout (from the store, idempotently); true when none remain,
   * so that a finished checkout may leave the watch.
   */
  settle?: (checkoutId: string, seen?: CheckoutRecord) => Promise<boolean>;
  now?: () => number;
}

/** The watch and its loop. */
export interface CheckoutWatch {
  /** Put a checkout on the watch (before a change of status is written), unless it is there. */
  add(checkout: Pick<CheckoutRecord, 'id' | 'widgetId'>): Promise<void>;
  /** Take a checkout off the watch (finished, with no reaction due). */
  remove(checkoutId: string): Promise<void>;
  /** Read every watched checkout that is due (the loop calls this; tests may too). */
  sweep(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<void>;
  start(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): void;
  /** Stop the loop (`start` starts it again); resolves once a sweep under way has finished. */
  close(): Promise<void>;
}

const terminal = (status: string) => (CHECKOUT_TERMINAL_STATUSES as readonly string[]).includes(status);

/** The {@link CheckoutWatch}. */
export function createCheckoutWatch(options: CheckoutWatchOptions): CheckoutWatch {
  const { store, logger, intervalMs } = options;
  const queue = store.queue(QUEUE_NAMES.checkoutWatch);
  const now = options.now ?? Date.now;
  let loop: BackgroundLoop | undefined;

  // Every checkout of the release before's list moves over: the sweep reads it and lets a finished one go.
  const moveLegacyList = legacyIdListMover(store, STORE_KEYS.legacyCheckoutWatch(), queue, async (id) => {
    const stored = await store.get(STORE_KEYS.checkout(id));
    return stored === null ? null : readCheckoutRecord(stored.value).widgetId;
  });

  /** Read one watched checkout and do what is due; it stays on the watch, due after the interval, until done. */
  async function read(id: string, checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>) {
    let record: CheckoutRecord | null | undefined;
    try {
      record = await checkouts.watch(id, widgets);
    } catch (error) {
      logger.warn('a watched checkout could not be read', { checkoutId: id, cause: String(error) });
    }
    try {
      // Done from the store whether or not the upstream answered: a reaction does not need it.
      const settled = record === null || ((await options.settle?.(id, record)) ?? true);
      if (record === null || (record !== undefined && terminal(record.status) && settled)) {
        await queue.remove(id);
        return;
      }
    } catch (error) {
      logger.warn('the reactions of a watched checkout could not be done', {
        checkoutId: id,
        cause: String(error),
      });
    }
    await queue.reschedule(id, now() + intervalMs);
  }

  const watch: CheckoutWatch = {
    async add(checkout) {
      await queue.add({ id: checkout.id, partition: checkout.widgetId, dueAtMs: now() });
    },
    async remove(checkoutId) {
      await queue.remove(checkoutId);
    },
    async sweep(checkouts, widgets) {
      await moveLegacyList(now());
      for (let batch = 0; batch < BATCHES_PER_SWEEP; batch += 1) {
        const claimed = await queue.claim(now(), { ...BATCH, leaseMs: LEASE_MS });
        for (const item of claimed) {
          await read(item.id, checkouts, widgets).catch((error: unknown) => {
            logger.warn('a watched checkout could not be rescheduled', {
              checkoutId: item.id,
              cause: String(error),
            });
          });
        }
        if (claimed.length < BATCH.limit) return;
      }
    },
    start(checkouts, widgets) {
      loop ??= createBackgroundLoop(() => watch.sweep(checkouts, widgets), {
        intervalMs,
        logger,
        failure: 'the checkout watch failed',
      });
      loop.start();
    },
    async close() {
      const stopping = loop?.close();
      loop = undefined;
      await stopping;
    },
  };
  return watch;
}
