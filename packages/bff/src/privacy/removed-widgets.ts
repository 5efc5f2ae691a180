/**
 * @module
 * The travellers of a widget removed from the config are erased after `privacy.removedWidgetErasureDays`, as
 * Shopify's `shop/redact` follows an uninstall: nobody can ask for them any more (no partner secret opens the
 * widget), yet its checkouts, deliveries and manage links would live out their own times. A background sweep reads
 * the stored checkouts (a key scan, once an hour: never per request), notes when it first found each widget gone
 * (`STORE_KEYS.removedWidget`, so every instance counts from the same day), forgets a widget put back meanwhile,
 * and once the period has passed queues the erasure of its checkouts (`privacy-erasures.ts`) under an id derived
 * from the widget and that day, so that later sweeps find it done.
 */
import { createHash } from 'node:crypto';
import { createBackgroundLoop } from '../background-loop';
import { readCheckoutRecord } from '../checkout/checkout-record';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import type { PrivacyErasures } from './privacy-erasures';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Keys read per page of the scan. */
const SCAN_PAGE = 500;
/** The note outlives any checkout of the widget (30 days after its last change) and the period. */
const NOTE_KEPT_MS = 400 * DAY_MS;

export interface RemovedWidgetsOptions {
  store: Store;
  /** The widgets in the config: every other widget id found in the store was removed. */
  configured: ReadonlySet<string>;
  erasures: Pick<PrivacyErasures, 'requestForRemovedWidget'>;
  /** `privacy.removedWidgetErasureDays`. */
  erasureDays: number;
  logger: Logger;
  /** How often the sweep runs. Default an hour. */
  intervalMs?: number;
  now?: () => number;
}

/** The sweep of removed widgets. */
export interface RemovedWidgets {
  /** Look once (the loop calls it; tests may too): note, forget or erase each widget gone from the config. */
  sweep(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

/** The erasure id of one removed widget, noted gone at `sinceMs`: the same on every sweep and instance. */
const erasureIdOf = (widgetId: string, sinceMs: number) =>
  `era_${createHash('sha256').update(`removed-widget:${widgetId}:${sinceMs}`).digest('base64url').slice(0, 22)}`;

/** The {@link RemovedWidgets} sweep. */
export function createRemovedWidgets(options: RemovedWidgetsOptions): RemovedWidgets {
  const { store, configured, logger } = options;
  const now = options.now ?? Date.now;

  /** Every stored key starting with `prefix`. */
  async function keysOf(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await store.scanKeys(prefix, cursor, SCAN_PAGE);
      keys.push(...page.keys);
      cursor = page.cursor;
    } while (cursor !== null);
    return keys;
  }

  /** The checkouts of widgets not in the config, by widget. */
  async function checkoutsOfRemoved(): Promise<Map<string, string[]>> {
    const byWidget = new Map<string, string[]>();
    for (const key of await keysOf(STORE_KEYS.checkout(''))) {
      const stored = await store.get(key);
      if (stored === null) continue;
      let widgetId: string;
      let id: string;
      try {
        ({ widgetId, id } = readCheckoutRecord(stored.value));
      } catch {
        continue;
      }
      if (configured.has(widgetId)) continue;
      byWidget.set(widgetId, [...(byWidget.get(widgetId) ?? []), id]);
    }
    return byWidget;
  }

  async function sweep(): Promise<void> {
    // A widget put back in the config starts afresh: its note goes.
    for (const key of await keysOf(STORE_KEYS.removedWidget(''))) {
      const widgetId = key.slice(STORE_KEYS.removedWidget('').length);
      const note = await store.get(key);
      if (configured.has(widgetId) && note !== null) await store.compareAndDelete(key, note.version);
    }
    for (const [widgetId, checkoutIds] of await checkoutsOfRemoved()) {
      const key = STORE_KEYS.removedWidget(widgetId);
      // First writer wins: every instance counts from the first day any of them found it gone.
      if (await store.insert(key, String(now()), NOTE_KEPT_MS)) {
        logger.warn('a widget is no longer in the config: its travellers are erased after the period', {
          widgetId,
          checkouts: checkoutIds.length,
          erasureDays: options.erasureDays,
        });
        continue;
      }
      const sinceMs = Number((await store.get(key))?.value);
      if (!Number.isFinite(sinceMs) || now() - sinceMs < options.erasureDays * DAY_MS) continue;
      await options.erasures.requestForRemovedWidget(widgetId, checkoutIds, erasureIdOf(widgetId, sinceMs));
    }
  }

  const loop = createBackgroundLoop(sweep, {
    intervalMs: options.intervalMs ?? 60 * 60 * 1000,
    runAtStart: true,
    logger,
    failure: 'the sweep of removed widgets failed; it runs again later',
  });
  return { sweep, start: () => loop.start(), close: () => loop.close() };
}
