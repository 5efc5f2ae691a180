/**
 * @module
 * How orders, eSIMs and action requests move over time, computed lazily from timestamps on the sandbox's
 * clock (no timers): `paid` → `provisioning` → `delivered` (eSIM `issued`, billing captured; the email of a
 * `platform` order sent) → `completed` (eSIM `delivered`), or `provisioning` → `provisioning_failed` (billing
 * released). Payment scenarios open as `draft` → `awaiting_payment` → `paid`, or → `expired_unpaid`.
 * Refund and reissue requests go `requested` → `in_review` and wait for the control API's resolution.
 * Every status change increments `stateRevision`.
 *
 * Over 300 lines: one advance moves orders, eSIMs and action requests together, so their rules stay here.
 */
import type {
  AccountState,
  ActionRequestRecord,
  EnvironmentState,
  EsimRecord,
  OrderRecord,
} from './environment-state';
import { newIccid, newInstallation } from './esim-profile';
import { sendPlatformEmail } from './platform-email';
import type { SandboxState } from './sandbox-state';

const DAY_MS = 24 * 60 * 60 * 1000;

function moveOrder(order: OrderRecord, status: OrderRecord['status'], atMs: number): void {
  order.status = status;
  order.stateRevision += 1;
  order.updatedAtMs = atMs;
}

function accountOf(env: EnvironmentState, accountId: string): AccountState {
  const account = env.accounts.get(accountId);
  if (!account)
    throw new Error(`account ${accountId} of an order is missing from the ${env.environment} state`);
  return account;
}

/** Issues the profile of a delivered `issue` order. */
function issueEsim(state: SandboxState, env: EnvironmentState, order: OrderRecord, atMs: number): EsimRecord {
  const pkg = order.product.package;
  const totalMb =
    pkg.kind === 'unlimited'
      ? null
      : pkg.kind === 'daypass'
        ? (pkg.dailyDataMb ?? 0) * pkg.durationDays
        : pkg.dataMb;
  const activation = order.offer.activation;
  const startsAtPurchase = activation.startsAt === 'purchase';
  const esim: EsimRecord = {
    id: env.ids.next('esim'),
    accountId: order.accountId,
    orderId: order.id,
    iccid: newIccid(env.ids),
    installation: newInstallation(env.ids, state.options.smdpAddress),
    // Issued with its order's delivery; `delivered` once the order completes (the delivery is done).
    state: 'issued',
    profileState: 'released',
    serviceState: 'not_started',
    allowanceState: 'healthy',
    totalMb,
    usedMb: 0,
    durationDays: pkg.durationDays,
    activatedAtMs: null,
    deadlineAtMs: activation.windowDays === null ? null : atMs + activation.windowDays * DAY_MS,
    serviceExpiresAtMs: startsAtPurchase ? atMs + pkg.durationDays * DAY_MS : null,
    usageObservedAtMs: atMs,
    offer: order.offer,
    product: order.product,
    createdAtMs: atMs,
  };
  env.esims.set(esim.id, esim);
  return esim;
}

/** Adds a delivered top-up to its profile. */
function applyTopUp(env: EnvironmentState, order: OrderRecord, atMs: number): void {
  const esim = order.targetEsimId ? env.esims.get(order.targetEsimId) : undefined;
  if (!esim) return;
  const pkg = order.product.package;
  if (esim.totalMb !== null && pkg.dataMb !== null) esim.totalMb += pkg.dataMb;
  if (esim.serviceExpiresAtMs !== null) {
    esim.serviceExpiresAtMs = Math.max(esim.serviceExpiresAtMs, atMs) + pkg.durationDays * DAY_MS;
  }
  refreshAllowance(esim);
  if (esim.state === 'depleted' && esim.allowanceState !== 'depleted') {
    esim.state = 'active';
    esim.serviceState = 'active';
  }
}

/** Recomputes `allowanceState` from the usage. */
export function refreshAllowance(esim: EsimRecord): void {
  if (esim.totalMb === null) {
    esim.allowanceState = 'healthy';
    return;
  }
  const remaining = esim.totalMb - esim.usedMb;
  esim.allowanceState = remaining <= 0 ? 'depleted' : remaining < esim.totalMb * 0.2 ? 'low' : 'healthy';
}

/** Applies every transition of one order that is due at `nowMs`. */
function advanceOrder(state: SandboxState, env: EnvironmentState, order: OrderRecord, nowMs: number): void {
  for (;;) {
    if (
      order.status === 'draft' &&
      order.awaitingPaymentAtMs !== null &&
      nowMs >= order.awaitingPaymentAtMs
    ) {
      moveOrder(order, 'awaiting_payment', order.awaitingPaymentAtMs);
    } else if (
      order.status === 'awaiting_payment' &&
      order.paymentDueAtMs !== null &&
      nowMs >= order.paymentDueAtMs
    ) {
      if (order.scenario === 'unpaid') {
        // Nobody paid: what the order held on the balance goes back.
        const account = accountOf(env, order.accountId);
        account.reservedMinor -= order.price.amountMinor;
        account.updatedAtMs = order.paymentDueAtMs;
        order.billingStatus = 'released';
        moveOrder(order, 'expired_unpaid', order.paymentDueAtMs);
        env.openOrders.delete(order.id);
        return;
      }
      moveOrder(order, 'paid', order.paymentDueAtMs);
    } else if (order.status === 'paid' && nowMs >= order.provisioningAtMs) {
      moveOrder(order, 'provisioning', order.provisioningAtMs);
    } else if (order.status === 'provisioning' && nowMs >= order.outcomeAtMs) {
      const account = accountOf(env, order.accountId);
      account.reservedMinor -= order.price.amountMinor;
      account.updatedAtMs = order.outcomeAtMs;
      if (order.scenario === 'fail') {
        order.billingStatus = 'released';
        moveOrder(order, 'provisioning_failed', order.outcomeAtMs);
        env.openOrders.delete(order.id);
        return;
      }
      account.balanceMinor -= order.price.amountMinor;
      order.billingStatus = 'captured';
      if (order.kind === 'issue') order.esimId = issueEsim(state, env, order, order.outcomeAtMs).id;
      else applyTopUp(env, order, order.outcomeAtMs);
      moveOrder(order, 'delivered', order.outcomeAtMs);
      sendPlatformEmail(env, account, order, order.outcomeAtMs);
    } else if (order.status === 'delivered' && nowMs >= order.completedAtMs) {
      const esim = order.kind === 'issue' && order.esimId ? env.esims.get(order.esimId) : undefined;
      if (esim?.state === 'issued') esim.state = 'delivered';
      moveOrder(order, 'completed', order.completedAtMs);
      env.openOrders.delete(order.id);
      return;
    } else {
      return;
    }
  }
}

/** Refunds an order to the prepaid balance. */
function refundOrder(env: EnvironmentState, order: OrderRecord, atMs: number): void {
  if (order.billingStatus === 'captured' || order.billingStatus === 'reserved') {
    const account = accountOf(env, order.accountId);
    account.balanceMinor += order.price.amountMinor;
    account.updatedAtMs = atMs;
    order.billingStatus = 'refunded';
  }
  order.statusBeforeRefund = null;
  moveOrder(order, 'refunded', atMs);
  env.openOrders.delete(order.id);
}

function revokeEsim(esim: EsimRecord | undefined): void {
  if (!esim) return;
  esim.state = 'revoked';
  esim.profileState = 'revoked';
  esim.serviceState = 'terminated';
}

function moveRequest(request: ActionRequestRecord, status: ActionRequestRecord['status'], atMs: number) {
  request.status = status;
  request.stateRevision += 1;
  request.updatedAtMs = atMs;
}

/** A refund request was opened on `order`: it shows `refund_requested` until the request is resolved. */
export function markRefundRequested(order: OrderRecord, atMs: number): void {
  if (order.status !== 'delivered' && order.status !== 'completed') return;
  order.statusBeforeRefund = order.status;
  moveOrder(order, 'refund_requested', atMs);
}

/**
 * A reissue's replacement: a new `issue` order of the same product (nothing charged), named by the action
 * request's `externalRef`, whose new eSIM is issued at once; the email goes out again for `platform` orders.
 */
function replacementOrder(
  state: SandboxState,
  env: EnvironmentState,
  original: OrderRecord,
  request: ActionRequestRecord,
  atMs: number,
): OrderRecord {
  const order: OrderRecord = {
    ...original,
    id: env.ids.next('ord'),
    kind: 'issue',
    targetEsimId: null,
    externalRef: request.externalRef,
    status: 'delivered',
    price: { amountMinor: 0, currency: original.price.currency },
    billingStatus: 'captured',
    recipient: { ...original.recipient },
    esimId: null,
    stateRevision: 1,
    createdAtMs: atMs,
    updatedAtMs: atMs,
    scenario: 'normal',
    awaitingPaymentAtMs: null,
    paymentDueAtMs: null,
    statusBeforeRefund: null,
    provisioningAtMs: atMs,
    outcomeAtMs: atMs,
    completedAtMs: atMs + state.options.stepDelaysMs.completion,
  };
  order.esimId = issueEsim(state, env, order, atMs).id;
  env.orders.set(order.id, order);
  env.openOrders.add(order.id);
  sendPlatformEmail(env, accountOf(env, order.accountId), order, atMs);
  return order;
}

/**
 * Refunds a sold order without a request through the API (the service's own decision, or the partner asking it
 * directly): the order is refunded to the balance and its profile revoked. Answers false when the order is not
 * one a refund can end (not delivered, completed or with a refund requested).
 */
export function refundOrderFromOutside(env: EnvironmentState, order: OrderRecord, atMs: number): boolean {
  if (order.status !== 'delivered' && order.status !== 'completed' && order.status !== 'refund_requested')
    return false;
  refundOrder(env, order, atMs);
  revokeEsim(order.esimId ? env.esims.get(order.esimId) : undefined);
  return true;
}

/** How a manual review ends (the control API decides), with the resolution the partner reads. */
export interface ActionResolution {
  outcome: 'completed' | 'rejected';
  resolution: { code: string; note: string | null };
}

/**
 * Ends a refund or reissue under review. A completed refund refunds the order and revokes its profile; a
 * completed reissue revokes the profile and issues a replacement order and eSIM; a rejected refund puts the
 * order back where it was.
 */
export function resolveActionRequest(
  state: SandboxState,
  env: EnvironmentState,
  request: ActionRequestRecord,
  decision: ActionResolution,
  atMs: number,
): void {
  const order = env.orders.get(request.orderId);
  if (decision.outcome === 'completed') {
    if (request.type === 'reissue' && order) {
      request.replacementOrderId = replacementOrder(state, env, order, request, atMs).id;
    }
    if (request.type !== 'reissue' && order) refundOrder(env, order, atMs);
    revokeEsim(env.esims.get(request.esimId));
    request.completedAtMs = atMs;
  } else if (order?.status === 'refund_requested' && order.statusBeforeRefund) {
    moveOrder(order, order.statusBeforeRefund, atMs);
    order.statusBeforeRefund = null;
  }
  request.resolution = decision.resolution;
  request.resolvesAtMs = null;
  moveRequest(request, decision.outcome, atMs);
}

/** Completes the cancellations that are due (refunded, profile revoked) and starts the reviews that are due. */
function advanceActionRequests(state: SandboxState, env: EnvironmentState, nowMs: number): void {
  for (const request of env.actionRequests.values()) {
    if (request.status !== 'requested') continue;
    if (request.reviewAtMs !== null && nowMs >= request.reviewAtMs) {
      moveRequest(request, 'in_review', request.reviewAtMs);
      continue;
    }
    if (request.resolvesAtMs === null || nowMs < request.resolvesAtMs) continue;
    resolveActionRequest(
      state,
      env,
      request,
      {
        outcome: 'completed',
        resolution: {
          code: 'refunded',
          note: 'Unused profile revoked and the order refunded to the balance.',
        },
      },
      request.resolvesAtMs,
    );
  }
}

/** Expires activated profiles whose service period ended. */
function advanceEsims(env: EnvironmentState, nowMs: number): void {
  for (const esim of env.esims.values()) {
    if (esim.serviceExpiresAtMs !== null && nowMs >= esim.serviceExpiresAtMs && esim.state !== 'revoked') {
      esim.state = 'expired';
      esim.serviceState = 'expired';
    }
  }
}

/** Brings one environment up to `nowMs`. Called before every authenticated request and control read. */
export function advanceEnvironment(state: SandboxState, env: EnvironmentState, nowMs: number): void {
  for (const id of env.openOrders) {
    const order = env.orders.get(id);
    if (order) advanceOrder(state, env, order, nowMs);
  }
  advanceActionRequests(state, env, nowMs);
  advanceEsims(env, nowMs);
}
