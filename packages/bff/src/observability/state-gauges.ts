/**
 * @module
 * Gauges read from the store when Prometheus scrapes: the checkouts still moving (by status, and how old the
 * oldest of each is) from the checkout watch's queue, and the webhook queue (its depth and its oldest pending
 * delivery, from the queue's own counts: no scan). The store is shared, so with several instances on Redis every
 * instance reports the same cluster-wide values: aggregate them with `max`, not `sum`.
 */
import { Gauge, type Registry } from 'prom-client';
import { readCheckoutRecord } from '../checkout/checkout-record';
import { STORE_KEYS, type Store } from '../store/store';
import { QUEUE_NAMES } from '../store/work-queue';
import type { WebhookQueue } from '../webhooks/webhook-queue';

/** The statuses a checkout moves on from by itself (the watch follows them until they end). */
export const MOVING_STATUSES = ['awaiting_payment', 'placing', 'provisioning'] as const;

/** Checkouts read at once while counting (a page of the watch's queue, not all in flight). */
const READ_SLICE = 100;
/** Watched checkouts read per scrape at most: past this the counts by status are a sample (a scrape stays cheap). */
const MOST_SAMPLED = 5_000;

export interface StateGaugeSources {
  store: Store;
  webhookQueue: WebhookQueue;
  now?: () => number;
}

interface StateReading {
  moving: Map<string, { count: number; oldestCreatedAtMs: number }>;
  queueDepth: number;
  oldestQueuedAtMs: number | null;
}

/** Register the state gauges on `registry`; they read the store once per scrape. */
export function registerStateGauges(registry: Registry, sources: StateGaugeSources): void {
  const { store, webhookQueue } = sources;
  const now = sources.now ?? Date.now;
  let inFlight: Promise<StateReading | null> | null = null;
  // The gauges are collected together: they share one reading of the store per scrape.
  const reading = () => {
    inFlight ??= read()
      .catch(() => null)
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  async function read(): Promise<StateReading> {
    const moving = new Map<string, { count: number; oldestCreatedAtMs: number }>(
      MOVING_STATUSES.map((status) => [status, { count: 0, oldestCreatedAtMs: Infinity }]),
    );
    const watched = store.queue(QUEUE_NAMES.checkoutWatch);
    let cursor: string | null = null;
    for (let sampled = 0; sampled < MOST_SAMPLED; ) {
      const page: Awaited<ReturnType<typeof watched.scan>> = await watched.scan(cursor, READ_SLICE);
      sampled += page.items.length;
      const stored = await Promise.all(page.items.map((item) => store.get(STORE_KEYS.checkout(item.id))));
      for (const entry of stored) {
        if (entry === null) continue;
        const record = readCheckoutRecord(entry.value);
        const tally = moving.get(record.status);
        if (tally === undefined) continue;
        tally.count += 1;
        tally.oldestCreatedAtMs = Math.min(tally.oldestCreatedAtMs, Date.parse(record.createdAt));
      }
      cursor = page.cursor;
      if (cursor === null) break;
    }
    const queued = await webhookQueue.stats();
    return { moving, queueDepth: queued.size, oldestQueuedAtMs: queued.oldestAddedAtMs };
  }

  const ageSeconds = (sinceMs: number) => Math.max(0, (now() - sinceMs) / 1000);
  const registers = [registry];

  new Gauge({
    name: 'bff_checkouts_moving',
    help: 'Checkouts still moving, by status (from the shared store: every instance reports the same).',
    labelNames: ['status'],
    registers,
    async collect() {
      const state = await reading();
      this.reset();
      for (const [status, tally] of state?.moving ?? []) this.set({ status }, tally.count);
    },
  });
  new Gauge({
    name: 'bff_checkout_oldest_age_seconds',
    help: 'Age (since it was created) of the oldest checkout in each moving status; 0 when none.',
    labelNames: ['status'],
    registers,
    async collect() {
      const state = await reading();
      this.reset();
      for (const [status, tally] of state?.moving ?? []) {
        this.set({ status }, tally.count === 0 ? 0 : ageSeconds(tally.oldestCreatedAtMs));
      }
    },
  });
  new Gauge({
    name: 'bff_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be delivered or retried (from the shared store).',
    registers,
    async collect() {
      const state = await reading();
      this.reset();
      if (state !== null) this.set(state.queueDepth);
    },
  });
  new Gauge({
    name: 'bff_webhook_queue_oldest_age_seconds',
    help: 'Age of the oldest webhook delivery still pending; 0 when none.',
    registers,
    async collect() {
      const state = await reading();
      this.reset();
      if (state !== null) this.set(state.oldestQueuedAtMs === null ? 0 : ageSeconds(state.oldestQueuedAtMs));
    },
  });
}
