/**
 * @module
 * Exactly one upstream order per checkout. The order is created with an `Idempotency-Key` derived from the
 * checkout id and `externalRef` = the checkout id; one worker at a time holds a short lease (taken by
 * compare-and-set, renewed by a heartbeat while the upstream call runs) to call the upstream; after a timeout
 * or any unclear failure the orders under the checkout's `externalRef` are looked up before anything is tried
 * again. A double click, a retry, a second instance or a crash between "sent" and "answered" therefore never
 * produces a second order or loses one: the lease of a dead worker runs out within seconds and another
 * instance finishes the placement under the same key.
 */
import type { CreateOrderRequest, Order } from '@esim-embed/shared';
import { type Backoff, backoffMs } from '../backoff';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { startLeaseHeartbeat } from '../store/lease-heartbeat';
import { leaveValue, versionedUpdate, writeValue } from '../store/versioned-update';
import type { UpstreamClient } from '../upstream/upstream-client';
import { type CheckoutRecord, type CheckoutRepository, checkoutSlot, type Stored } from './checkout-record';
import { checkoutStatusFor, failureFor, orderFailure } from './order-status';

/** The upstream idempotency key of a checkout's order: the same on every attempt, on every instance. */
export function orderIdempotencyKey(checkoutId: string): string {
  return `checkout-${checkoutId}-order`;
}

/** Failures after which the order may still be placed later: the checkout stays `placing`. */
// A refused credential (`widget_misconfigured`) placed nothing and may be fixed by the operator: tried again.
const TRANSIENT_CODES = new Set([
  'upstream_unavailable',
  'internal',
  'widget_misconfigured',
  'rate_limited',
  'idempotency_conflict',
]);

/**
 * After this many attempts without an answer the checkout fails (retryable, with a new checkout) — but only
 * once the upstream has said that no order exists under its `externalRef`.
 */
export const MAX_PLACEMENT_ATTEMPTS = 8;

/** How long a placement worker's hold lasts without a heartbeat: a dead worker is replaced this soon. */
export const PLACEMENT_LEASE_MS = 5_000;

const PLACEMENT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 30_000 };

/** The pause before the next attempt after `attempts` postponed ones: 1 s, 2 s, 4 s … at most 30 s. */
export function placementBackoffMs(attempts: number): number {
  return backoffMs(attempts - 1, PLACEMENT_BACKOFF);
}

export interface OrderPlacementOptions {
  repository: CheckoutRepository;
  logger: Logger;
  /** How long one worker's hold on a checkout's placement lasts between heartbeats. */
  leaseMs: number;
  now?: () => number;
}

/** What placement needs of the widget. */
export interface PlacementTarget {
  upstream: UpstreamClient;
  deliveryMode: 'partner' | 'platform';
}

/** The checkout after an order was read: its status, failure and order link. */
export function withOrder(record: CheckoutRecord, order: Order, now: number): CheckoutRecord {
  return {
    ...record,
    status: checkoutStatusFor(order),
    failure: orderFailure(order),
    order: {
      id: order.id,
      status: order.status,
      esimResourceUrl: order.esim?.resourceUrl ?? null,
      // A top-up order names the eSIM it tops up; an issue order, the eSIM it issued.
      esimId: order.esim?.id ?? order.targetEsimId ?? null,
      billing: order.billing,
      stateRevision: order.stateRevision,
    },
    placement: { ...record.placement, leaseUntil: null },
    syncedAt: now,
  };
}

/** Places the orders of `placing` checkouts. */
export interface OrderPlacement {
  /**
   * Place the checkout's order if it is `placing` and nobody else is at it; returns the checkout as it is
   * afterwards (`provisioning`/`ready` with the order, `failed`, or still `placing` to be resumed later).
   */
  place(checkoutId: string, target: PlacementTarget): Promise<Stored<CheckoutRecord>>;
}

/** The {@link OrderPlacement} of the BFF. */
export function createOrderPlacement(options: OrderPlacementOptions): OrderPlacement {
  const { repository, logger, leaseMs } = options;
  const now = options.now ?? Date.now;
  // Three beats per lease: one slow renewal does not yet let another instance in.
  const heartbeatMs = Math.floor(leaseMs * 0.3);

  async function load(id: string): Promise<Stored<CheckoutRecord>> {
    const stored = await repository.getCheckout(id);
    if (stored === null) throw new ApiError('checkout_not_found');
    return stored;
  }

  /** Write `change(latest)` over whatever is stored now, unless an order was recorded meanwhile. */
  async function save(
    current: Stored<CheckoutRecord>,
    change: (latest: CheckoutRecord) => CheckoutRecord,
  ): Promise<Stored<CheckoutRecord>> {
    const outcome = await versionedUpdate(
      checkoutSlot(repository, () => load(current.record.id)),
      (latest, round) => {
        const stored = latest as Stored<CheckoutRecord>;
        if (round > 0 && stored.record.order !== null) return leaveValue(stored);
        return writeValue(change(stored.record), stored);
      },
      { initial: current, rounds: 10 },
    );
    if (outcome.kind === 'written') return outcome.stored;
    if (outcome.kind === 'left') return outcome.result;
    throw new ApiError('internal', {
      cause: new Error(`checkout ${current.record.id} kept changing under placement`),
    });
  }

  async function findExisting(upstream: UpstreamClient, checkoutId: string): Promise<Order | undefined> {
    const listed = await upstream.findOrdersByExternalRef(checkoutId);
    // The `externalRef` filter is our assumption, not the contract's: an upstream that ignores it lists other
    // checkouts' orders, and adopting one of those would hand this traveller someone else's eSIM.
    const orders = listed.filter((order) => order.externalRef === checkoutId);
    if (orders.length < listed.length) {
      logger.warn('the upstream listed orders of other references for an externalRef lookup', {
        checkoutId,
        ignored: listed.length - orders.length,
      });
    }
    if (orders.length > 1) {
      // Never expected (every attempt carries the same Idempotency-Key): loud, so that it is looked at.
      logger.error('more than one upstream order for one checkout', {
        checkoutId,
        orderIds: orders.map((order) => order.id),
      });
    }
    return [...orders].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  }

  /** What one call of the upstream came to. */
  type Outcome =
    | { kind: 'order'; order: Order }
    | { kind: 'postpone'; code: string }
    | { kind: 'fail'; code: string };

  async function callUpstream(record: CheckoutRecord, target: PlacementTarget): Promise<Outcome> {
    const body: CreateOrderRequest = {
      quoteId: record.upstreamQuoteId,
      externalRef: record.id,
      deliveryMode: target.deliveryMode,
      // The checkout id as the recipient's reference: a `platform` email (and the upstream's records) can be
      // traced back to the checkout without the traveller's address. The address itself goes upstream only when
      // the upstream sends the email (`platform`, where the contract requires it): with `partner` delivery the
      // BFF or the partner emails the traveller, and the upstream needs neither it nor a copy of it.
      recipient:
        record.email === null || target.deliveryMode !== 'platform'
          ? { reference: record.id, locale: record.locale }
          : { email: record.email, reference: record.id, locale: record.locale },
    };
    try {
      // A previous attempt may have reached the upstream before it timed out or its worker died.
      const found =
        record.placement.attempts > 1 ? await findExisting(target.upstream, record.id) : undefined;
      const order =
        found ??
        (await target.upstream.createOrder(body, { idempotencyKey: orderIdempotencyKey(record.id) }));
      return { kind: 'order', order };
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'internal';
      // Whatever went wrong, the order may exist now: look before deciding.
      let known = true;
      const order = await findExisting(target.upstream, record.id).catch(() => {
        known = false;
        return undefined;
      });
      if (order !== undefined) return { kind: 'order', order };
      const transient = TRANSIENT_CODES.has(code);
      // Give up only when the upstream said that there is no order: an unanswered lookup may hide one.
      if (transient && (!known || record.placement.attempts < MAX_PLACEMENT_ATTEMPTS)) {
        return { kind: 'postpone', code };
      }
      return { kind: 'fail', code: transient ? 'upstream_unavailable' : code };
    }
  }

  async function attempt(
    leased: Stored<CheckoutRecord>,
    target: PlacementTarget,
  ): Promise<Stored<CheckoutRecord>> {
    const record = leased.record;
    // The lease is short so that a dead worker is replaced within seconds; while this one is alive and waiting
    // for the upstream (timeouts and retries take longer than the lease), the heartbeat keeps it.
    let holding = leased;
    const heartbeat = startLeaseHeartbeat(async () => {
      const latest = holding.record;
      const renewed = await repository.updateCheckout(holding, {
        ...latest,
        placement: { ...latest.placement, leaseUntil: now() + leaseMs },
      });
      if (renewed !== null) holding = renewed;
      return renewed !== null;
    }, heartbeatMs);
    let outcome: Outcome;
    try {
      outcome = await callUpstream(record, target);
    } finally {
      await heartbeat.stop();
    }
    if (outcome.kind === 'order') {
      const placed = outcome.order;
      const time = now();
      logger.info('order placed', { checkoutId: record.id, orderId: placed.id, orderStatus: placed.status });
      return await save(holding, (latest) => withOrder(latest, placed, time));
    }
    // A postponement or a failure is written only over this worker's own last write: any other write since
    // means the placement is someone else's now (a worker that took over after this one stalled past its
    // lease, or an order adopted by reconciliation), and theirs stands.
    const latest = holding.record;
    let next: CheckoutRecord;
    if (outcome.kind === 'postpone') {
      const retryAt = now() + placementBackoffMs(record.placement.attempts);
      logger.warn('order placement postponed', {
        checkoutId: record.id,
        code: outcome.code,
        attempt: record.placement.attempts,
      });
      next = { ...latest, placement: { ...latest.placement, leaseUntil: retryAt } };
    } else {
      const failure = failureFor(outcome.code);
      logger.info('order refused', { checkoutId: record.id, code: failure.code });
      next = { ...latest, status: 'failed', failure, placement: { ...latest.placement, leaseUntil: null } };
    }
    return (await repository.updateCheckout(holding, next)) ?? (await load(record.id));
  }

  return {
    async place(checkoutId, target) {
      const outcome = await versionedUpdate(
        checkoutSlot(repository, () => load(checkoutId)),
        (current) => {
          const stored = current as Stored<CheckoutRecord>;
          const record = stored.record;
          if (record.status !== 'placing' || record.order !== null) return leaveValue(stored);
          const time = now();
          if (record.placement.leaseUntil !== null && record.placement.leaseUntil > time) {
            return leaveValue(stored);
          }
          const leased = { attempts: record.placement.attempts + 1, leaseUntil: time + leaseMs };
          return writeValue({ ...record, placement: leased }, stored);
        },
      );
      if (outcome.kind === 'written') return await attempt(outcome.stored, target);
      if (outcome.kind === 'left') return outcome.result;
      return await load(checkoutId);
    },
  };
}
