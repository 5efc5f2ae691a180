/**
 * @module
 * The background watch: checkouts that are still moving (awaiting payment, placing, provisioning) are read
 * from the upstream every few seconds even when no traveller polls them, so that every status change is
 * observed — and its webhook sent — after the tab is closed. The list of watched ids lives in the store
 * (changed by compare-and-set), so any instance may pick up where another stopped.
 */
import { CHECKOUT_TERMINAL_STATUSES } from '@esim-embed/shared';
import { type BackgroundLoop, createBackgroundLoop } from '../background-loop';
import type { Logger } from '../logger';
import { editIdList, readIdList } from '../store/id-list';
import { STORE_KEYS, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { CHECKOUT_RETENTION_MS, type CheckoutRecord } from './checkout-record';
import type { CheckoutService } from './checkout-service';

export interface CheckoutWatchOptions {
  store: Store;
  logger: Logger;
  /** How often the watched checkouts are read. */
  intervalMs: number;
  /** Called with a finished checkout before it leaves the list (queues its webhook events, idempotently). */
  settle?: (record: CheckoutRecord) => Promise<void>;
}

/** The watch list and its loop. */
export interface CheckoutWatch {
  /** Add a moving checkout to the list, or take a finished one off (a checkout observer calls this). */
  track(record: CheckoutRecord): Promise<void>;
  /** Read every watched checkout once (the loop calls this; tests may too). */
  sweep(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<void>;
  start(checkouts: CheckoutService, widgets: ReadonlyMap<string, WidgetRuntime>): void;
  close(): void;
}

const terminal = (status: string) => (CHECKOUT_TERMINAL_STATUSES as readonly string[]).includes(status);

/** The {@link CheckoutWatch}. */
export function createCheckoutWatch(options: CheckoutWatchOptions): CheckoutWatch {
  const { store, logger } = options;
  const key = STORE_KEYS.checkoutWatch();
  let loop: BackgroundLoop | undefined;

  const change = (edit: (ids: string[]) => string[]) => editIdList(store, key, edit, CHECKOUT_RETENTION_MS);
  const watched = () => readIdList(store, key);

  const watch: CheckoutWatch = {
    async track(record) {
      if (terminal(record.status)) await change((ids) => ids.filter((id) => id !== record.id));
      else await change((ids) => (ids.includes(record.id) ? ids : [...ids, record.id]));
    },
    async sweep(checkouts, widgets) {
      for (const id of await watched()) {
        try {
          const record = await checkouts.watch(id, widgets);
          if (record !== null && terminal(record.status)) await options.settle?.(record);
          if (record === null || terminal(record.status)) {
            await change((ids) => ids.filter((candidate) => candidate !== id));
          }
        } catch (error) {
          logger.warn('a watched checkout could not be read', { checkoutId: id, cause: String(error) });
        }
      }
    },
    start(checkouts, widgets) {
      loop ??= createBackgroundLoop(() => watch.sweep(checkouts, widgets), {
        intervalMs: options.intervalMs,
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
