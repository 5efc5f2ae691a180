/**
 * @module
 * Funding before payment: before a checkout exists (and so before the traveller is asked to pay), the
 * partner's account must be able to fund its order — read from the upstream account (cached for seconds),
 * less what open checkouts already hold in the reservation ledger. A checkout awaiting payment holds softly:
 * for a short while, within the caps of its address, its session and the account, and never in a paying
 * traveller's way. The partner's payment start checks the funding again and keeps the hold firmly for the
 * payment alone — within caps of its own, for a short while, until a decline — while it stays counted against
 * the unpaid caps of whoever opened the checkout; the partner's confirm checks the funding again and makes the
 * hold firm. Holds are settled when the order is placed (the upstream's own balance then covers it) and
 * released when the checkout ends. Also the partner's view of its money and the `account.balance_low` event.
 * Over 300 lines: each step of a checkout's money (hold, payment start, decline, confirm, settle, release) is one
 * short entry over the same account snapshot and ledger; the decision is `funding-decision.ts`, the ledger its own.
 */
import { createHash } from 'node:crypto';
import type { BalanceLowWebhookEvent, PartnerAccount } from '@esim-embed/shared';
import type { CheckoutFunding, NewCheckoutHold } from '../checkout/checkout-funding';
import type { CheckoutObserver, CheckoutRecord } from '../checkout/checkout-record';
import {
  type PaymentHolds,
  PaymentHoldsSchema,
  type UnpaidHolds,
  UnpaidHoldsSchema,
} from '../config/config-schema';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store } from '../store/store';
import { UpstreamError } from '../upstream/upstream-error';
import { eventId, queueWebhookEvent } from '../webhooks/webhook-events';
import type { WebhookQueue } from '../webhooks/webhook-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { type AccountSnapshot, type AccountSnapshots, createAccountSnapshots } from './account-snapshot';
import {
  firmHolds,
  fundingRefusal,
  type PaymentHoldLimits,
  paymentHoldRefusal,
  type UnpaidHoldLimits,
  unpaidHoldRefusal,
} from './funding-decision';
import {
  createReservationLedger,
  fundingBookName,
  type HeldFunds,
  type ReservationLedger,
  type UnpaidHolder,
} from './reservation-ledger';

/** How long a confirmed (or direct) checkout's hold is kept while its order is being placed. */
const PLACING_HOLD_MS = 60 * 60_000;
/** How long past its payment deadline a hold being paid for is kept firmly (a confirm at the end). */
const CONFIRM_GRACE_MS = 5 * 60_000;
/** How long an `account.balance_low` crossing is remembered before it may be told again. */
const BALANCE_LOW_MEMORY_MS = 24 * 60 * 60_000;
/** How often an instance looks whether a crossing another instance told of has ended. */
const BALANCE_RECOVERY_CHECK_MS = 30_000;

/** The unpaid caps, and how long an unpaid hold counts (at most until its checkout's payment deadline). */
export interface UnpaidHoldOptions extends UnpaidHoldLimits {
  holdMs: number;
}

/** The unpaid caps and hold time of the config's `unpaidHolds`. */
export function unpaidHoldOptions(config: UnpaidHolds): UnpaidHoldOptions {
  const { holdSeconds, sharePercent, ...caps } = config;
  return { ...caps, holdMs: holdSeconds * 1000, share: sharePercent / 100 };
}

/** The payment caps, and how long a started payment holds firmly (at most until its checkout's deadline and grace). */
export interface PaymentHoldOptions extends PaymentHoldLimits {
  holdMs: number;
}

/** The payment caps and hold time of the config's `paymentHolds`. */
export function paymentHoldOptions(config: PaymentHolds): PaymentHoldOptions {
  const { holdSeconds, ...caps } = config;
  return { ...caps, holdMs: holdSeconds * 1000 };
}

export interface PartnerFundingOptions {
  store: Store;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  logger: Logger;
  /** Where `account.balance_low` events go (absent: none are sent). */
  webhooks?: WebhookQueue;
  /** How long an account read is used before the account is read again. Default 5 s. */
  accountFreshMs?: number;
  /** The unpaid caps and hold time. Default: the config's defaults. */
  unpaidHolds?: UnpaidHoldOptions;
  /** The payment caps and hold time. Default: the config's defaults. */
  paymentHolds?: PaymentHoldOptions;
  /** Hears every refusal before payment, with its code and the cap or room that refused it (a metric). */
  onRefusal?: (code: string, cap: string) => void;
  /**
   * What the ledger keeps of a hold's maker (its address and session): a keyed digest (the key ring's
   * `funding-holder` key, `security/keyed-digest.ts`), so that a copy of the store reverses no address by trying
   * them all.
   */
  holderDigest: (value: string) => string;
  now?: () => number;
}

/** The funding side of checkouts: what a checkout asks of it, and the holds following each change of status. */
export interface PartnerFunding extends CheckoutFunding {
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
  const unpaidHolds = options.unpaidHolds ?? unpaidHoldOptions(UnpaidHoldsSchema.parse({}));
  const paymentHolds = options.paymentHolds ?? paymentHoldOptions(PaymentHoldsSchema.parse({}));
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

  const digest = (value: string, length: number) =>
    createHash('sha256').update(value).digest('base64url').slice(0, length);
  const ledgerKey = (widget: WidgetRuntime, snapshot: AccountSnapshot) =>
    `${widget.config.environment}:${digest(widget.upstream.baseUrl, 12)}:${snapshot.account.id}`;

  /** One ledger per upstream account: widgets selling through one account share its balance. */
  function ledgerOf(widget: WidgetRuntime, snapshot: AccountSnapshot): ReservationLedger {
    const key = ledgerKey(widget, snapshot);
    let found = ledgers.get(key);
    if (found === undefined) {
      found = createReservationLedger(store, key, now);
      ledgers.set(key, found);
    }
    return found;
  }

  /**
   * The maker of an unpaid hold as the ledger keeps it: keyed digests, named by the ledger, of the address (as the
   * checkout keeps it, `openedFrom`) and the session that opened the checkout.
   */
  const holderOf = (ledger: string, opener: Pick<NewCheckoutHold, 'address' | 'session'>): UnpaidHolder => ({
    address: options.holderDigest(`${ledger}:address:${opener.address}`),
    session: options.holderDigest(`${ledger}:session:${opener.session}`),
  });

  /** The label of a refusal in the metric and the log: the cap or the room that refused. */
  function capOf(error: ApiError): string {
    const cap = String(error.params.scope ?? error.params.held ?? error.params.limit ?? 'balance');
    return error.params.reason === 'payments_in_progress' ? `payments_${cap}` : cap;
  }

  /**
   * Change `ledger` by `write`, which approves with `approve` (throwing `decide`'s refusal, logged and counted,
   * when there is one); its answer.
   */
  async function holdIn<T>(
    widget: WidgetRuntime,
    snapshot: AccountSnapshot,
    decide: (others: HeldFunds) => ApiError | null,
    write: (ledger: ReservationLedger, approve: (others: HeldFunds) => void) => Promise<T>,
  ): Promise<T> {
    const ledger = ledgerOf(widget, snapshot);
    let answer: T;
    try {
      answer = await write(ledger, (others) => {
        const refusal = decide(others);
        if (refusal !== null) throw refusal;
      });
    } catch (error) {
      if (error instanceof ApiError && error.params.reason !== 'busy') {
        const cap = capOf(error);
        logger.info('checkout refused before payment', { widgetId: widget.config.id, code: error.code, cap });
        options.onRefusal?.(error.code, cap);
        // The store nears its limit: the partner hears of it as of a low balance.
        if (error.params.held === 'unpaid') await afterHold(widget, snapshot, ledger);
      }
      throw error;
    }
    // The hold is money promised: on the replicas before the sale goes on (a failover must not forget it). The
    // marker goes into the book's hash tag, so a cluster waits on the node that holds the book.
    await store.confirmReplicated?.(
      STORE_KEYS.entryBookEntries(fundingBookName(ledgerKey(widget, snapshot))),
    );
    await afterHold(widget, snapshot, ledger);
    return answer;
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

  /** The account, or null when a paid order may go on unchecked (the upstream's own check at the order decides). */
  async function readAccountUnlessPaid(
    widget: WidgetRuntime,
    paid: boolean,
  ): Promise<AccountSnapshot | null> {
    return await readAccount(widget).catch((error: unknown) => {
      // A paid checkout (`direct`, or confirmed) takes nobody's money before its order, and a refusal there
      // charges nothing. A traveller about to pay the partner must wait instead.
      if (!paid || !(error instanceof ApiError) || error.code !== 'upstream_unavailable') throw error;
      logger.warn('the upstream account is unreadable: a paid checkout goes on unchecked', {
        widgetId: widget.config.id,
      });
      return null;
    });
  }

  return {
    async hold(widget, checkoutId, wholesale, checkout) {
      const unpaid = checkout.status === 'awaiting_payment';
      const snapshot = await readAccountUnlessPaid(widget, !unpaid);
      if (snapshot === null) return;
      const time = now();
      if (!unpaid) {
        const request = { amount: wholesale, holdUntilMs: time + PLACING_HOLD_MS, unpaidBy: null };
        // A paying traveller leaves only the firm holds and the payments in progress: nothing unpaid stands in its
        // way.
        await holdIn(
          widget,
          snapshot,
          (others) => fundingRefusal(snapshot.account, wholesale, firmHolds(others)),
          (ledger, approve) => ledger.hold(checkoutId, request, approve, snapshot.readAtMs),
        );
        return;
      }
      const request = {
        amount: wholesale,
        holdUntilMs: Math.min(Date.parse(checkout.expiresAt), time + unpaidHolds.holdMs),
        unpaidBy: holderOf(ledgerKey(widget, snapshot), checkout),
      };
      await holdIn(
        widget,
        snapshot,
        (others) => unpaidHoldRefusal(snapshot.account, wholesale, others, unpaidHolds, now()),
        (ledger, approve) => ledger.hold(checkoutId, request, approve, snapshot.readAtMs),
      );
    },

    async startPayment(widget, record) {
      const snapshot = await readAccountUnlessPaid(widget, true);
      if (snapshot === null) return;
      const time = now();
      const request = {
        amount: record.wholesale,
        // Never past the checkout's deadline and its grace: a confirm after that is refused anyway.
        untilMs: Math.min(
          time + paymentHolds.holdMs,
          Math.max(time, Date.parse(record.expiresAt)) + CONFIRM_GRACE_MS,
        ),
        attempt: record.declinedAttempts + 1,
        // Who opened the checkout (one of an earlier release, which kept no address, counts by its session alone).
        holder: holderOf(ledgerKey(widget, snapshot), {
          address: record.openedFrom ?? `checkout:${record.id}`,
          session: record.sessionId,
        }),
      };
      const started = await holdIn(
        widget,
        snapshot,
        (others) => paymentHoldRefusal(snapshot.account, record.wholesale, others, paymentHolds, now()),
        (ledger, approve) => ledger.startPayment(record.id, request, approve, snapshot.readAtMs),
      );
      if (started) {
        logger.debug('checkout payment holds firmly', {
          checkoutId: record.id,
          widgetId: widget.config.id,
          attempt: request.attempt,
          untilMs: request.untilMs,
        });
      }
    },

    async endPayment(widget, record, attempt) {
      const found = await ledgerForRecord(record);
      if (found !== null && (await found.ledger.endPayment(record.id, attempt))) {
        logger.debug('checkout payment ended: its hold is unpaid again', {
          checkoutId: record.id,
          widgetId: widget.config.id,
          attempt,
        });
      }
    },

    async holdFirmly(widget, record) {
      const snapshot = await readAccountUnlessPaid(widget, true);
      if (snapshot === null) return;
      const holdUntilMs =
        record.status === 'awaiting_payment'
          ? Math.max(now(), Date.parse(record.expiresAt)) + CONFIRM_GRACE_MS
          : now() + PLACING_HOLD_MS;
      const request = { amount: record.wholesale, holdUntilMs, unpaidBy: null };
      await holdIn(
        widget,
        snapshot,
        (others) => fundingRefusal(snapshot.account, record.wholesale, firmHolds(others)),
        (ledger, approve) => ledger.hold(record.id, request, approve, snapshot.readAtMs),
      );
    },

    async release(widget, checkoutId) {
      const snapshot = snapshotsOf(widget).peek();
      if (snapshot !== undefined) await ledgerOf(widget, snapshot).release(checkoutId);
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
