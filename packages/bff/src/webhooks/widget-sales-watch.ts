/**
 * @module
 * Tells the partner when its widget stops selling and when it sells again: every few seconds each widget's held
 * catalog says whether quotes are refused and why (`salesStopped`, no upstream call: the catalog refresh reads the
 * account, its retail brand and supply); a change from what the partner was last told is sent as a signed
 * `widget.sales_stopped` (with the reason, and the brand's status when a paused or terminated retail brand is the
 * reason) or `widget.sales_resumed` webhook. What was told is kept in the store and changed by compare-and-set, so
 * several instances tell one change once; each instance acts only on a change of its own view, so an instance
 * whose catalog is a refresh behind never tells the opposite. The change's event is written with it and taken off
 * once queued, so a process killed in between loses no event: the next look queues it.
 */
import type { WidgetSalesWebhookEvent } from '@esim-embed/shared';
import { z } from 'zod';
import { createBackgroundLoop } from '../background-loop';
import { appliedBrandOf } from '../catalog/retail-brand';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { eventId, queueWebhookEvent } from './webhook-events';
import type { WebhookQueue } from './webhook-queue';

/** How long what was told is remembered (while a widget sells unchanged, nothing is rewritten). */
const TOLD_KEPT_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * What the partner was told: the reason (null: it sells), and — until it is on the webhook queue — the event that
 * tells it. The event is written with the change, so a process killed between the write and the queue leaves it
 * here, and the next look of any instance queues it (queuing is idempotent by event id).
 */
const ToldSchema = z.looseObject({
  reason: z.string().nullable(),
  unqueued: z.looseObject({ id: z.string(), createdAtMs: z.number() }).optional(),
});

export interface WidgetSalesWatchOptions {
  store: Store;
  queue: WebhookQueue;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** How often the held catalogs are looked at. */
  intervalMs: number;
  now?: () => number;
}

/** The watch. */
export interface WidgetSalesWatch {
  /** Look at every widget now (the loop calls this; tests may too). */
  check(): Promise<void>;
  start(): void;
  /** Stop looking; resolves once a look under way has finished. */
  close(): Promise<void>;
}

/** The {@link WidgetSalesWatch}. */
export function createWidgetSalesWatch(options: WidgetSalesWatchOptions): WidgetSalesWatch {
  const { store, queue, widgets, logger } = options;
  const now = options.now ?? Date.now;
  /** What this instance saw last, by widget (absent: nothing yet, so the store is the reference). */
  const seen = new Map<string, string | null>();

  /** Queue the event a told record still holds, then drop it from the record (a lost race: another did). */
  async function queueUnqueued(key: string, stored: { value: string; version: number }): Promise<void> {
    const { unqueued, ...told } = ToldSchema.parse(JSON.parse(stored.value));
    if (unqueued === undefined) return;
    const { createdAtMs, ...event } = unqueued;
    await queueWebhookEvent(queue, event as unknown as WidgetSalesWebhookEvent, createdAtMs);
    await store.compareAndSet(key, stored.version, JSON.stringify(told), TOLD_KEPT_MS);
  }

  async function tell(widget: WidgetRuntime, reason: string | null): Promise<void> {
    const widgetId = widget.config.id;
    const key = STORE_KEYS.widgetSales(widgetId);
    let stored = await store.get(key);
    // An event a killed process wrote but did not queue goes out first.
    if (stored !== null && ToldSchema.parse(JSON.parse(stored.value)).unqueued !== undefined) {
      await queueUnqueued(key, stored);
      stored = await store.get(key);
    }
    const told = stored === null ? null : ToldSchema.parse(JSON.parse(stored.value)).reason;
    if (told === reason) return;
    const type = reason === null ? 'widget.sales_resumed' : 'widget.sales_stopped';
    const brandStatus =
      reason === 'retail_brand_status'
        ? (appliedBrandOf(await widget.catalog.whiteLabel())?.status ?? null)
        : null;
    const time = now();
    const event: WidgetSalesWebhookEvent = {
      // One event per change: the told record's version after this write names it.
      id: eventId(`${widgetId}:sales:${stored === null ? 1 : stored.version + 1}`, type),
      type,
      createdAt: new Date(time).toISOString(),
      widgetId,
      environment: widget.config.environment,
      data: { reason, brandStatus },
    };
    const sends = widget.config.webhookUrl !== undefined && widget.webhookSecret !== undefined;
    const value = JSON.stringify({ reason, ...(sends ? { unqueued: { ...event, createdAtMs: time } } : {}) });
    const written =
      stored === null
        ? await store.insert(key, value, TOLD_KEPT_MS)
        : await store.compareAndSet(key, stored.version, value, TOLD_KEPT_MS);
    // Another instance told this change first.
    if (!written) return;
    logger.warn(reason === null ? 'widget sells again' : 'widget stopped selling', {
      widgetId,
      reason,
      brandStatus,
    });
    // Now on the queue, and off the record (read again: the write's version is the record's).
    const fresh = await store.get(key);
    if (fresh !== null) await queueUnqueued(key, fresh);
  }

  async function check(): Promise<void> {
    for (const widget of widgets.values()) {
      // Nothing read yet says nothing about selling.
      if (widget.catalog.held() === undefined) continue;
      const reason = widget.catalog.salesStopped();
      const id = widget.config.id;
      if (seen.has(id) && seen.get(id) === reason) continue;
      try {
        await tell(widget, reason);
        seen.set(id, reason);
      } catch (error) {
        // Looked at again next time (`seen` is unchanged).
        logger.warn('a widget’s sales change could not be told', { widgetId: id, cause: String(error) });
      }
    }
  }

  const loop = createBackgroundLoop(check, {
    intervalMs: options.intervalMs,
    logger,
    failure: 'the widget sales watch failed',
  });
  return { check, start: () => loop.start(), close: () => loop.close() };
}
