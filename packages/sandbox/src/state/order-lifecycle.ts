/**
 * @module
 * How orders, eSIMs and action requests move over time, computed lazily from timestamps on the sandbox's
 * clock (no timers): `paid` → `provisioning` → `delivered` (eSIM issued, billing captured) → `completed`, or
 * `provisioning` → `provisioning_failed` (billing released). Every status change increments `stateRevision`.
 */
import type { AccountState, EnvironmentState, EsimRecord, OrderRecord } from './environment-state';
import { newIccid, newInstallation } from './esim-profile';
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
    state: 'delivered',
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
    if (order.status === 'paid' && nowMs >= order.provisioningAtMs) {
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
    } else if (order.status === 'delivered' && nowMs >= order.completedAtMs) {
      moveOrder(order, 'completed', order.completedAtMs);
      env.openOrders.delete(order.id);
      return;
    } else {
      return;
    }
  }
}

/** Completes the cancellations that are due: the order is refunded and its profile revoked. */
function advanceActionRequests(env: EnvironmentState, nowMs: number): void {
  for (const request of env.actionRequests.values()) {
    if (request.status !== 'requested' || request.resolvesAtMs === null || nowMs < request.resolvesAtMs)
      continue;
    const atMs = request.resolvesAtMs;
    const order = env.orders.get(request.orderId);
    const esim = env.esims.get(request.esimId);
    if (order && (order.billingStatus === 'captured' || order.billingStatus === 'reserved')) {
      const account = accountOf(env, order.accountId);
      account.balanceMinor += order.price.amountMinor;
      account.updatedAtMs = atMs;
      order.billingStatus = 'refunded';
      moveOrder(order, 'refunded', atMs);
      env.openOrders.delete(order.id);
    }
    if (esim) {
      esim.state = 'revoked';
      esim.profileState = 'revoked';
      esim.serviceState = 'terminated';
    }
    request.status = 'completed';
    request.stateRevision += 1;
    request.updatedAtMs = atMs;
    request.completedAtMs = atMs;
    request.resolution = {
      code: 'refunded',
      note: 'Unused profile revoked and the order refunded to the balance.',
    };
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
  advanceActionRequests(env, nowMs);
  advanceEsims(env, nowMs);
}
