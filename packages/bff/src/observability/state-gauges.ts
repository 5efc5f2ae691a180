/**
 * @module
 * Gauges read from the store when Prometheus scrapes: the checkouts still moving (by status, and how old the
 * oldest of each is) from the checkout watch's list, and the webhook queue (its depth and its oldest pending
 * delivery). The store is shared, so with several instances on Redis every instance reports the same
 * cluster-wide values: aggregate them with `max`, not `sum`.
 */
import { Gauge, type Registry } from 'prom-client';
import { readCheckoutRecord } from '../checkout/checkout-record';
import { readIdList } from '../store/id-list';
import { STORE_KEYS, type Store } from '../store/store';
import type { WebhookQueue } from '../webhooks/webhook-queue';

/** The statuses a checkout moves on from by itself (the watch follows them until they end). */
export const MOVING_STATUSES = ['awaiting_payment', 'placing', 'provisioning'] as const;

/** Checkouts read at once while counting (a long list is read in slices, not all in flight). */
const READ_SLICE = 100;
/** Queue entries looked at to find the oldest pending delivery (the list is in the order events were queued). */
const OLDEST_LOOKAHEAD = 20;

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
    const ids = await readIdList(store, STORE_KEYS.checkoutWatch());
    for (let start = 0; start < ids.length; start += READ_SLICE) {
      const stored = await Promise.all(
        ids.slice(start, start + READ_SLICE).map((id) => store.get(STORE_KEYS.checkout(id))),
      );
      for (const entry of stored) {
        if (entry === null) continue;
        const record = readCheckoutRecord(entry.value);
        const tally = moving.get(record.status);
        if (tally === undefined) continue;
        tally.count += 1;
        tally.oldestCreatedAtMs = Math.min(tally.oldestCreatedAtMs, Date.parse(record.createdAt));
      }
    }
    const queued = await webhookQueue.pendingIds();
    let oldestQueuedAtMs: number | null = null;
    for (const id of queued.slice(0, OLDEST_LOOKAHEAD)) {
      const delivery = (await webhookQueue.read(id))?.delivery;
      if (delivery?.state === 'pending') {
        oldestQueuedAtMs = delivery.createdAtMs;
        break;
      }
    }
    return { moving, queueDepth: queued.length, oldestQueuedAtMs };
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
