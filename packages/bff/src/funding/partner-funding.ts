/**
 * @module
 * Funding before payment: before a checkout exists (and so before the traveller is asked to pay), the
 * partner's account must be able to fund its order — read from the upstream account (cached for seconds),
 * less what open checkouts already hold in the reservation ledger. The holds then follow the checkout: kept
 * while it awaits payment or is placed, settled when the order is placed (the upstream's own balance then
 * covers it), released when it ends. Also the partner's view of its money and the `account.balance_low` event.
 */
import { createHash } from 'node:crypto';
import type { BalanceLowWebhookEvent, NonNegativeMoney, PartnerAccount } from '@esim-embed/shared';
import type { CheckoutObserver, CheckoutRecord } from '../checkout/checkout-record';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import { UpstreamError } from '../upstream/upstream-error';
import { eventId, queueWebhookEvent } from '../webhooks/webhook-events';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type AccountSnapshot, type AccountSnapshots, createAccountSnapshots } from './account-snapshot';
import { fundingRefusal } from './funding-decision';
import { createReservationLedger, type HeldFunds, type ReservationLedger } from './reservation-ledger';

/** How long past its payment deadline an unpaid checkout's hold is kept (the expiry is noticed late). */
const UNPAID_GRACE_MS = 5 * 60_000;
/** How long a confirmed (or direct) checkout's hold is kept while its order is being placed. */
const PLACING_HOLD_MS = 60 * 60_000;
/** How long an `account.balance_low` crossing is remembered before it may be told again. */
const BALANCE_LOW_MEMORY_MS = 24 * 60 * 60_000;
/** How often an instance looks whether a crossing another instance told of has ended. */
const BALANCE_RECOVERY_CHECK_MS = 30_000;

export interface PartnerFundingOptions {
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** Where `account.balance_low` events go (absent: none are sent). */
  webhooks?: WebhookQueue;
  /** How long an account read is used before the account is read again. Default 5 s. */
  accountFreshMs?: number;
  now?: () => number;
}

/** The funding side of checkouts. */
export interface PartnerFunding {
  /**
   * Refuse (the contract's code, `stage: 'before_payment'`) when the widget's partner cannot fund `wholesale`
   * now; otherwise hold it for `checkoutId` until `holdUntilMs`. Holding again for one checkout holds once.
   */
  hold(
    widget: WidgetRuntime,
    checkoutId: string,
    wholesale: NonNegativeMoney,
    holdUntilMs: number,
  ): Promise<void>;
  /** Give a hold back (the checkout was not made after all). */
  release(widget: WidgetRuntime, checkoutId: string): Promise<void>;
  /** How long a new checkout's hold lasts: its payment window, or the placement for `direct`. */
  holdUntil(record: Pick<CheckoutRecord, 'status' | 'expiresAt'>): number;
  /** A checkout observer: holds follow the checkout's status. */
  observe: CheckoutObserver;
  /** The partner's view of its money through one widget. */
  account(widget: WidgetRuntime): Promise<PartnerAccount>;
}

/** Upstream failures that pass: the account is read again on the next checkout. */
const TRANSIENT = new Set(['upstream_unavailable', 'rate_limited', 'internal']);
/** What an upstream credential without `balance:read` answers: the BFF cannot check funding then. */
const UNREADABLE = new Set(['scope_missing', 'forbidden']);

/** The {@link PartnerFunding} of the BFF's widgets. */
export function createPartnerFunding(options: PartnerFundingOptions): PartnerFunding {
  const { store, widgets, logger } = options;
  const now = options.now ?? Date.now;
  const snapshots = new Map<string, AccountSnapshots>();
  const ledgers = new Map<string, ReservationLedger>();
  const unreadableWarned = new Set<string>();
  const lowChecked = new Map<string, number>();

  function snapshotsOf(widget: WidgetRuntime): AccountSnapshots {
    let found = snapshots.get(widget.config.id);
    if (found === undefined) {
      found = createAccountSnapshots({ upstream: widget.upstream, freshMs: options.accountFreshMs, now });
      snapshots.set(widget.config.id, found);
    }
    return found;
  }

  /** One ledger per upstream account: widgets selling through one account share its balance. */
  function ledgerOf(widget: WidgetRuntime, snapshot: AccountSnapshot): ReservationLedger {
    const origin = createHash('sha256').update(widget.upstream.baseUrl).digest('base64url').slice(0, 12);
    const key = `${widget.config.environment}:${origin}:${snapshot.account.id}`;
    let found = ledgers.get(key);
    if (found === undefined) {
      found = createReservationLedger(store, key, now);
      ledgers.set(key, found);
    }
    return found;
  }

  /** The account, or null when the credential may not read it (then funding cannot be checked here). */
  async function readAccount(widget: WidgetRuntime): Promise<AccountSnapshot | null> {
    try {
      return await snapshotsOf(widget).read();
    } catch (error) {
      if (
        error instanceof UpstreamError &&
        error.upstreamCode !== null &&
        UNREADABLE.has(error.upstreamCode)
      ) {
        if (!unreadableWarned.has(widget.config.id)) {
          unreadableWarned.add(widget.config.id);
          logger.warn('the upstream key may not read its account: funding is checked only when ordering', {
            widgetId: widget.config.id,
            code: error.upstreamCode,
          });
        }
        return null;
      }
      // Over the upstream key's budget: the traveller hears "busy, try again in a moment", never a 503.
      if (error instanceof ApiError && error.code === 'rate_limited') throw error;
      if (error instanceof ApiError && TRANSIENT.has(error.code)) {
        throw new ApiError('upstream_unavailable', {
          params: { stage: 'before_payment' },
          retryAfterSeconds: 5,
        });
      }
      throw error;
    }
  }

  function view(widget: WidgetRuntime, snapshot: AccountSnapshot, held: HeldFunds) {
    const { account } = snapshot;
    const available = account.balance.availableBalance;
    return {
      accountId: account.id,
      name: account.name,
      status: account.status,
      balance: account.balance.balance,
      availableBalance: available,
      heldByCheckouts: { amountMinor: held.amountMinor, currency: available.currency },
      openCheckouts: held.count,
      placedThisMonth: { amountMinor: held.spentThisMonthMinor, currency: available.currency },
      spendable: { amountMinor: available.amountMinor - held.amountMinor, currency: available.currency },
      limits: { singleOrder: account.limits.singleOrder, monthlySpend: account.limits.monthlySpend },
      lowBalanceThreshold: widget.config.lowBalanceThreshold ?? null,
      checkedAt: new Date(snapshot.readAtMs).toISOString(),
    } satisfies PartnerAccount;
  }

  /** Tell the partner once per crossing when what it can still spend is below its threshold. */
  async function watchBalance(widget: WidgetRuntime, account: PartnerAccount): Promise<void> {
    const threshold = widget.config.lowBalanceThreshold;
    if (threshold === undefined || threshold.currency !== account.spendable.currency) return;
    const key = STORE_KEYS.balanceLow(widget.config.id);
    const time = now();
    if (account.spendable.amountMinor >= threshold.amountMinor) {
      // Back above: end the crossing so the next fall is told again (looked at now and then, not on every sale).
      if (time - (lowChecked.get(widget.config.id) ?? 0) < BALANCE_RECOVERY_CHECK_MS) return;
      lowChecked.set(widget.config.id, time);
      const flagged = await store.get(key);
      if (flagged !== null) await store.compareAndDelete(key, flagged.version);
      return;
    }
    const crossing = `${widget.config.id}:${time}`;
    if (!(await store.insert(key, crossing, BALANCE_LOW_MEMORY_MS))) return;
    lowChecked.set(widget.config.id, 0);
    logger.warn('partner balance below its threshold', {
      widgetId: widget.config.id,
      accountId: account.accountId,
    });
    if (options.webhooks === undefined || widget.config.webhookUrl === undefined) return;
    const event: BalanceLowWebhookEvent = {
      id: eventId(crossing, 'account.balance_low'),
      type: 'account.balance_low',
      createdAt: new Date(time).toISOString(),
      widgetId: widget.config.id,
      environment: widget.config.environment,
      data: { account },
    };
    await queueWebhookEvent(options.webhooks, event, time);
  }

  async function afterHold(widget: WidgetRuntime, snapshot: AccountSnapshot, ledger: ReservationLedger) {
    if (widget.config.lowBalanceThreshold === undefined) return;
    try {
      const currency = snapshot.account.balance.availableBalance.currency;
      await watchBalance(widget, view(widget, snapshot, await ledger.held(currency, snapshot.readAtMs)));
    } catch (error) {
      // The sale goes on; the next one looks again.
      logger.warn('the balance threshold could not be checked', {
        widgetId: widget.config.id,
        cause: String(error),
      });
    }
  }

  /** Forget the account reads of every widget on the account of `widget`: its balance just moved. */
  function balanceMoved(widget: WidgetRuntime): void {
    const accountId = snapshotsOf(widget).peek()?.account.id;
    for (const other of widgets.values()) {
      const held = snapshots.get(other.config.id);
      if (other === widget || (accountId !== undefined && held?.peek()?.account.id === accountId)) {
        held?.invalidate();
      }
    }
  }

  /** The ledger a checkout's hold is in, from the last read account (no upstream call when one is held). */
  async function ledgerForRecord(record: CheckoutRecord) {
    const widget = widgets.get(record.widgetId);
    if (widget === undefined) return null;
    const snapshot = snapshotsOf(widget).peek() ?? (await readAccount(widget));
    return snapshot === null ? null : { widget, ledger: ledgerOf(widget, snapshot) };
  }

  return {
    async hold(widget, checkoutId, wholesale, holdUntilMs) {
      const snapshot = await readAccount(widget).catch((error: unknown) => {
        // A `direct` checkout takes nobody's money before its order: the upstream's own check at the order
        // decides, and a refusal there charges nothing. A traveller about to pay the partner must wait instead.
        if (widget.config.checkoutMode !== 'direct' || !(error instanceof ApiError)) throw error;
        if (error.code !== 'upstream_unavailable') throw error;
        logger.warn('the upstream account is unreadable: a direct checkout goes on unchecked', {
          widgetId: widget.config.id,
        });
        return null;
      });
      if (snapshot === null) return;
      const ledger = ledgerOf(widget, snapshot);
      await ledger.hold(
        checkoutId,
        wholesale,
        holdUntilMs,
        (others) => {
          const refusal = fundingRefusal(snapshot.account, wholesale, others);
          if (refusal !== null) {
            logger.info('checkout refused before payment', {
              widgetId: widget.config.id,
              code: refusal.code,
            });
            throw refusal;
          }
        },
        snapshot.readAtMs,
      );
      await afterHold(widget, snapshot, ledger);
    },

    async release(widget, checkoutId) {
      const snapshot = snapshotsOf(widget).peek();
      if (snapshot !== undefined) await ledgerOf(widget, snapshot).release(checkoutId);
    },

    holdUntil(record) {
      return record.status === 'awaiting_payment'
        ? Date.parse(record.expiresAt) + UNPAID_GRACE_MS
        : now() + PLACING_HOLD_MS;
    },

    async observe(before, after) {
      if (before?.status === after.status) return;
      switch (after.status) {
        case 'placing': {
          const found = await ledgerForRecord(after);
          await found?.ledger.extend(after.id, now() + PLACING_HOLD_MS);
          return;
        }
        case 'provisioning':
        case 'ready': {
          const found = await ledgerForRecord(after);
          if (found !== null && (await found.ledger.settle(after.id, now()))) balanceMoved(found.widget);
          return;
        }
        case 'failed':
        case 'expired':
        case 'cancelled': {
          const found = await ledgerForRecord(after);
          await found?.ledger.release(after.id);
          return;
        }
        default:
          return;
      }
    },

    async account(widget) {
      const snapshot = await readAccount(widget);
      if (snapshot === null) throw new ApiError('scope_missing', { params: { scope: 'balance:read' } });
      const currency = snapshot.account.balance.availableBalance.currency;
      const account = view(
        widget,
        snapshot,
        await ledgerOf(widget, snapshot).held(currency, snapshot.readAtMs),
      );
      await watchBalance(widget, account).catch(() => undefined);
      return account;
    },
  };
}
