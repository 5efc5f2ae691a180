/**
 * @module
 * Keeping a checkout in step with the upstream: its order placed (and postponed placements retried in the
 * background by this instance), its status mirrored from the upstream order with a short cache shared by
 * every poller of this instance, and an unpaid `partner_confirm` checkout expired when its window ends.
 */
import { CHECKOUT_TERMINAL_STATUSES, type Order } from '@esim-embed/shared';
import { createBackgroundLoop } from '../background-loop';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutRecord, CheckoutRepository, Stored } from './checkout-record';
import { createOrderPlacement, PLACEMENT_LEASE_MS, type PlacementTarget, withOrder } from './order-placement';

export interface CheckoutSyncOptions {
  repository: CheckoutRepository;
  logger: Logger;
  /** How long a checkout's status is served from the store before the upstream order is read again. */
  statusCacheMs: number;
  /** How long a placement stays this instance's after its last heartbeat. Default {@link PLACEMENT_LEASE_MS}. */
  placementLeaseMs?: number | undefined;
  /** How often postponed placements are retried. Default 5 s. */
  resumeIntervalMs?: number | undefined;
  now: () => number;
}

/** Places orders and refreshes checkouts. */
export interface CheckoutSync {
  /** Place the checkout's order now if it is `placing` and nobody else is at it (see `order-placement.ts`). */
  place(id: string, widget: WidgetRuntime): Promise<Stored<CheckoutRecord>>;
  /**
   * The checkout brought up to date: expired, placed, or its order's status read again once the cache is stale.
   * `afterSale`: a `ready` checkout's order is read again too (the partner's reads: a refund moves it on);
   * `fresh`: read past the cache (a refund just completed).
   */
  refresh(
    stored: Stored<CheckoutRecord>,
    widget: WidgetRuntime,
    options?: { afterSale?: boolean; fresh?: boolean },
  ): Promise<Stored<CheckoutRecord>>;
  /** Stops the background retries; resolves once a retry under way has finished. */
  close(): Promise<void>;
}

/** The {@link CheckoutSync} of one BFF instance. */
export function createCheckoutSync(options: CheckoutSyncOptions): CheckoutSync {
  const { repository, logger, statusCacheMs, now } = options;
  const placement = createOrderPlacement({
    repository,
    logger,
    leaseMs: options.placementLeaseMs ?? PLACEMENT_LEASE_MS,
    now,
  });
  /** Status refreshes in flight on this instance, so many pollers share one upstream read. */
  const refreshing = new Map<string, Promise<Stored<CheckoutRecord>>>();

  const target = (widget: WidgetRuntime): PlacementTarget => ({
    upstream: widget.upstream,
    deliveryMode: widget.config.deliveryMode,
  });

  /** Checkouts whose placement this instance postponed, retried in the background. */
  const postponed = new Map<string, WidgetRuntime>();
  async function place(id: string, widget: WidgetRuntime): Promise<Stored<CheckoutRecord>> {
    const placed = await placement.place(id, target(widget));
    if (placed.record.status === 'placing' && placed.record.order === null) postponed.set(id, widget);
    else postponed.delete(id);
    return placed;
  }
  const resumer = createBackgroundLoop(
    async function resumePostponedPlacements() {
      for (const [id, widget] of [...postponed]) {
        await place(id, widget).catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'checkout_not_found') postponed.delete(id);
          logger.warn('postponed placement failed again', { checkoutId: id, code: (error as ApiError).code });
        });
      }
    },
    { intervalMs: options.resumeIntervalMs ?? 5_000 },
  );
  resumer.start();

  async function refresh(
    stored: Stored<CheckoutRecord>,
    widget: WidgetRuntime,
    refreshOptions: { afterSale?: boolean; fresh?: boolean } = {},
  ): Promise<Stored<CheckoutRecord>> {
    const id = stored.record.id;
    const running = refreshing.get(id);
    if (running !== undefined) return await running;
    const work = (async () => {
      const record = stored.record;
      const time = now();
      if (record.status === 'awaiting_payment' && Date.parse(record.expiresAt) <= time) {
        return (await repository.updateCheckout(stored, { ...record, status: 'expired' })) ?? stored;
      }
      if (record.status === 'placing' && record.order === null) return await place(id, widget);
      const terminal =
        (CHECKOUT_TERMINAL_STATUSES as readonly string[]).includes(record.status) &&
        !(refreshOptions.afterSale === true && record.status === 'ready');
      if (
        record.order === null ||
        terminal ||
        (refreshOptions.fresh !== true && record.syncedAt !== null && time - record.syncedAt < statusCacheMs)
      ) {
        return stored;
      }
      let order: Order;
      try {
        order = await widget.upstream.getOrder(record.order.id);
      } catch (error) {
        // A poll during an upstream outage, or over the key's budget, shows the last known status.
        if (
          error instanceof ApiError &&
          (error.code === 'upstream_unavailable' || error.code === 'rate_limited')
        )
          return stored;
        throw error;
      }
      return (await repository.updateCheckout(stored, withOrder(record, order, now()))) ?? stored;
    })();
    refreshing.set(id, work);
    try {
      return await work;
    } finally {
      refreshing.delete(id);
    }
  }

  return {
    place,
    refresh,
    close() {
      return resumer.close();
    },
  };
}
