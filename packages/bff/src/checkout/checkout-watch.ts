/**
 * @module
 * The background watch: checkouts that are still moving (awaiting payment, placing, provisioning) are read
 * from the upstream every few seconds even when no traveller polls them, so that every status change is
 * observed — and its webhook sent — after the tab is closed; and a checkout whose reactions to a change are
 * still due (checkout-transitions.ts) has them done again until they are, whatever its status. The list of
 * watched ids lives in the store (changed by compare-and-set), so any instance may pick up where another
 * stopped.
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
  /**
   * Does the reactions still due on a watched checkout (from the store, idempotently); true when none remain,
   * so that a finished checkout may leave the list.
   */
  settle?: (checkoutId: string, seen?: CheckoutRecord) => Promise<boolean>;
}

/** The watch list and its loop. */
export interface CheckoutWatch {
  /** Put a checkout on the list (before a change of status is written), unless it is there. */
  add(checkout: Pick<CheckoutRecord, 'id' | 'widgetId'>): Promise<void>;
  /** Take a checkout off the list (finished, with no reaction due). */
  remove(checkoutId: string): Promise<void>;
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
    async add(checkout) {
      await change((ids) => (ids.includes(checkout.id) ? ids : [...ids, checkout.id]));
    },
    async remove(checkoutId) {
      await change((ids) => ids.filter((id) => id !== checkoutId));
    },
    async sweep(checkouts, widgets) {
      for (const id of await watched()) {
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
            await watch.remove(id);
          }
        } catch (error) {
          logger.warn('the reactions of a watched checkout could not be done', {
            checkoutId: id,
            cause: String(error),
          });
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
