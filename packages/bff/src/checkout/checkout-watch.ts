/**
 * @module
 * The background watch: checkouts that are still moving (awaiting payment, placing, provisioning) are read
 * from the upstream every few seconds even when no traveller polls them, so that every status change is
 * observed — and its webhook sent — after the tab is closed. The watched ids are on a work queue in the store,
 * each due at its next read and partitioned by widget: a sweep claims due ones in bounded batches (leased, so
 * two instances never read one checkout at once, and one that dies leaves its batch to the others).
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
  /** Called with a finished checkout before it leaves the watch (queues its webhook events, idempotently). */
  settle?: (record: CheckoutRecord) => Promise<void>;
  now?: () => number;
}

/** The watch list and its loop. */
export interface CheckoutWatch {
  /** Watch a moving checkout, or stop watching a finished one (a checkout observer calls this). */
  track(record: CheckoutRecord): Promise<void>;
  /** Read every watched checkout that is due (the loop calls this; tests may too). */
  sweep(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<void>;
  start(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): void;
  close(): void;
}

const terminal = (status: string) => (CHECKOUT_TERMINAL_STATUSES as readonly string[]).includes(status);

/** The {@link CheckoutWatch}. */
export function createCheckoutWatch(options: CheckoutWatchOptions): CheckoutWatch {
  const { store, logger, intervalMs } = options;
  const queue = store.queue(QUEUE_NAMES.checkoutWatch);
  const now = options.now ?? Date.now;
  let loop: BackgroundLoop | undefined;

  async function widgetOf(id: string): Promise<string | null> {
    const stored = await store.get(STORE_KEYS.checkout(id));
    if (stored === null) return null;
    const record = readCheckoutRecord(stored.value);
    return terminal(record.status) ? null : record.widgetId;
  }

  const moveLegacyList = legacyIdListMover(store, STORE_KEYS.legacyCheckoutWatch(), queue, widgetOf);

  async function read(id: string, checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>) {
    try {
      const record = await checkouts.watch(id, widgets);
      if (record !== null && terminal(record.status)) await options.settle?.(record);
      if (record === null || terminal(record.status)) await queue.remove(id);
      else await queue.reschedule(id, now() + intervalMs);
    } catch (error) {
      logger.warn('a watched checkout could not be read', { checkoutId: id, cause: String(error) });
      await queue.reschedule(id, now() + intervalMs).catch(() => {});
    }
  }

  const watch: CheckoutWatch = {
    async track(record) {
      if (terminal(record.status)) await queue.remove(record.id);
      else await queue.add({ id: record.id, partition: record.widgetId, dueAtMs: now() });
    },
    async sweep(checkouts, widgets) {
      await moveLegacyList(now());
      for (let batch = 0; batch < BATCHES_PER_SWEEP; batch += 1) {
        const claimed = await queue.claim(now(), { ...BATCH, leaseMs: LEASE_MS });
        for (const item of claimed) await read(item.id, checkouts, widgets);
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
    close() {
      loop?.close();
      loop = undefined;
    },
  };
  return watch;
}
