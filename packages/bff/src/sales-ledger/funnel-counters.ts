/**
 * @module
 * The funnel's counters: per widget, UTC day and step (widget opened → plan chosen → quoted → checkout → payment
 * started → paid → installed), one fixed-window counter of the store each (every store keeps counters alike), living
 * the sales ledger's retention (400 days by default). A counter holds a number and nothing else — no address, no
 * session, no checkout — so the charts cost no one's privacy. Counting is one increment, the store's cheapest write,
 * whose commit does not wait for a sync on the embedded store; a count that fails is logged and dropped, never the
 * request's failure. A step as frequent as a page view (`tally`: a widget opened) is counted in memory and added
 * to the store every few seconds, one increment per widget and step, so a page view writes nothing; a stop adds
 * what is pending, and a process killed loses at most those seconds of page views. A read adds this instance's
 * pending counts.
 */
import type { FunnelDay, FunnelStep } from '@esim-embed/shared/console';
import { FUNNEL_STEPS } from '@esim-embed/shared/console';
import { createBackgroundLoop } from '../background-loop';
import type { BackgroundWork } from '../background-stop';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The funnel's counters. */
export interface FunnelCounters {
  /** Count one step of `widgetId` on the day of `atMs` (default now). Never rejects. */
  count(widgetId: string, step: FunnelStep, atMs?: number): Promise<void>;
  /** Count one step of `widgetId` now, in memory: added to the store with the next flush. */
  tally(widgetId: string, step: FunnelStep): void;
  /** Adds the tallied counts to the store every few seconds, and what is left at its close. */
  readonly background: BackgroundWork;
  /** Each of `widgetIds`' days from `fromDay` to `toDay` (UTC days, inclusive), oldest first. */
  read(widgetIds: readonly string[], fromDay: string, toDay: string): Promise<FunnelDay[]>;
}

/** The UTC day of an instant: `2026-11-29`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The UTC days from `fromDay` to `toDay`, inclusive. */
export function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${fromDay}T00:00:00Z`); ms <= Date.parse(`${toDay}T00:00:00Z`); ms += DAY_MS) {
    days.push(utcDay(ms));
  }
  return days;
}

const counterKey = (widgetId: string, day: string, step: FunnelStep) =>
  STORE_KEYS.counter(`funnel:${widgetId}:${day}:${step}`);

/** How often tallied counts are added to the store. */
const FLUSH_INTERVAL_MS = 5_000;

/** The {@link FunnelCounters} over a store, kept `keptMs` (the sales ledger's retention). */
export function createFunnelCounters(options: {
  store: Store;
  keptMs: number;
  logger: Logger;
  now?: (() => number) | undefined;
}): FunnelCounters {
  const { store, keptMs } = options;
  const now = options.now ?? Date.now;
  /** Tallied counts not yet in the store, by counter key. */
  let pending = new Map<string, number>();
  /** Today's counter keys by widget and step: a tally (a page view each) builds no date nor key of its own. */
  let today = { index: Number.NaN, keys: new Map<string, Map<FunnelStep, string>>() };
  const keyToday = (widgetId: string, step: FunnelStep): string => {
    const index = Math.floor(now() / DAY_MS);
    if (index !== today.index) today = { index, keys: new Map() };
    let byStep = today.keys.get(widgetId);
    if (byStep === undefined) {
      byStep = new Map();
      today.keys.set(widgetId, byStep);
    }
    let key = byStep.get(step);
    if (key === undefined) {
      key = counterKey(widgetId, utcDay(index * DAY_MS), step);
      byStep.set(step, key);
    }
    return key;
  };

  async function flush(): Promise<void> {
    const taken = pending;
    pending = new Map();
    await Promise.all(
      [...taken].map(async ([key, by]) => {
        try {
          await store.increment(key, by, keptMs);
        } catch (error) {
          // Kept for the next flush: a store that is down for a moment loses no page view.
          pending.set(key, (pending.get(key) ?? 0) + by);
          options.logger.warn('funnel steps were not counted yet', { key, by, error: String(error) });
        }
      }),
    );
  }
  const loop = createBackgroundLoop(flush, { intervalMs: FLUSH_INTERVAL_MS, runAtStart: false });

  return {
    tally(widgetId, step) {
      const key = keyToday(widgetId, step);
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },

    background: {
      name: 'funnel counts',
      start: () => loop.start(),
      async close() {
        await loop.close();
        await flush();
      },
    },

    async count(widgetId, step, atMs) {
      const day = utcDay(atMs ?? now());
      // A counter's window starts with its first count: a day's lives its retention from that day on.
      await store.increment(counterKey(widgetId, day, step), 1, keptMs).catch((error: unknown) => {
        options.logger.warn('a funnel step was not counted', { widgetId, step, error });
      });
    },

    async read(widgetIds, fromDay, toDay) {
      const days = daysBetween(fromDay, toDay);
      const rows = widgetIds.flatMap((widgetId) => days.map((day) => ({ widgetId, day })));
      return await Promise.all(
        rows.map(async ({ widgetId, day }) => {
          // An increment by nothing reads a counter (and starts an empty one, at zero).
          const counts = await Promise.all(
            FUNNEL_STEPS.map(async (step) => {
              const key = counterKey(widgetId, day, step);
              return (await store.increment(key, 0, keptMs)).count + (pending.get(key) ?? 0);
            }),
          );
          const steps = Object.fromEntries(FUNNEL_STEPS.map((step, index) => [step, counts[index] ?? 0]));
          return { day, widgetId, steps: steps as FunnelDay['steps'] };
        }),
      );
    },
  };
}
