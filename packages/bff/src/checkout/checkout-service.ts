/**
 * @module
 * The sale: quotes and checkouts bound to the session that made them, the two checkout modes (`direct`
 * places the order at once, `partner_confirm` waits for the partner's server), installation data and
 * delivery links for the holder of the client secret, the partner's confirm, and one cancel for the partner and
 * the traveller. Status sync and order placement live in `checkout-sync.ts` and `order-placement.ts`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  Checkout,
  ConfirmCheckoutRequest,
  CreateCheckoutRequest,
  CreateDeliveryLinkRequest,
  CreatedCheckout,
  CreateQuoteRequest,
  Installation,
  NonNegativeMoney,
  PartnerCheckout,
  Quote,
  WidgetDeliveryLink,
} from '@esim-embed/shared';
import { ApiErrorCodeSchema } from '@esim-embed/shared';
import { assertNotInstalled, installationData } from '../after-sale/esim-view';
import { assertManagesEsim, type ManageClaims } from '../after-sale/manage-token';
import { ApiError, idempotencyConflict } from '../errors';
import type { PartnerFunding } from '../funding/partner-funding';
import type { Logger } from '../logger';
import { enforceLimit } from '../security/rate-limit';
import type { SessionClaims } from '../security/session-token';
import { STORE_KEYS, type Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { assertWidgetAccess, type CheckoutSecrets } from './checkout-access';
import {
  type CheckoutObserver,
  type CheckoutRecord,
  type CheckoutRepository,
  createCheckoutRepository,
  type QuoteRecord,
  type Stored,
} from './checkout-record';
import { createCheckoutSync } from './checkout-sync';

/** Quotes stay readable this long past their expiry, so a late checkout hears `quote_expired`, not "not found". */
const QUOTE_GRACE_MS = 60 * 60 * 1000;
/** Quota windows outlive a session (≤ 15 min), so a quota is per session in practice. */
const SESSION_QUOTA_WINDOW_MS = 60 * 60 * 1000;

/** The caller of a widget route: a verified session and its widget. */
export interface SessionCaller {
  claims: SessionClaims;
  widget: WidgetRuntime;
  /** A verified manage token (`X-Manage-Token`), needed for a top-up of its eSIM. */
  manage?: ManageClaims | undefined;
}

export interface CheckoutServiceOptions {
  store: Store;
  logger: Logger;
  secrets: CheckoutSecrets;
  /** How long a checkout's status is served from the store before the upstream order is read again. */
  statusCacheMs: number;
  /**
   * How often this instance retries the placements it postponed, so that an order is placed after an
   * upstream outage even when nobody polls the checkout any more (the traveller closed the tab). Default 5 s.
   */
  resumeIntervalMs?: number;
  /** Hears every checkout status change that was written (webhooks, the background watch). */
  observer?: CheckoutObserver;
  /** Checks and holds the partner's funding before a checkout exists (absent: no funding check). */
  funding?: PartnerFunding;
  now?: () => number;
}

/** The sale's operations, called by the widget and partner routes. */
export interface CheckoutService {
  createQuote(caller: SessionCaller, body: CreateQuoteRequest, idempotencyKey: string): Promise<Quote>;
  /**
   * The checkout of a quote. `id` is chosen with the create's idempotency key: a retry that took the key over
   * from a lost holder passes the same id and resumes that checkout (written if missing, placement carried on).
   */
  createCheckout(caller: SessionCaller, body: CreateCheckoutRequest, id: string): Promise<CreatedCheckout>;
  /** The checkout's client secret, recomputed (a replayed create puts it back into its kept answer). */
  clientSecretOf(id: string): string;
  readCheckout(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Checkout>;
  /** The traveller abandons a checkout that awaits payment (the holder of the client secret). */
  cancelCheckout(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Checkout>;
  installation(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Installation>;
  createDeliveryLink(
    caller: SessionCaller,
    id: string,
    clientSecret: string | undefined,
    body: CreateDeliveryLinkRequest,
    idempotencyKey: string,
  ): Promise<WidgetDeliveryLink>;
  /** The partner's view; `widgets` are the widgets whose partner secret the caller presented. */
  partnerRead(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerCheckout>;
  /** The installation data of a ready checkout's eSIM, for the partner to send the traveller (not yet installed). */
  partnerInstallation(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<Installation>;
  partnerConfirm(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    id: string,
    body: ConfirmCheckoutRequest,
  ): Promise<PartnerCheckout>;
  partnerCancel(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerCheckout>;
  /** The checkout brought up to date with its upstream order (the background watch), or null when gone. */
  watch(id: string, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<CheckoutRecord | null>;
  /** The eSIM a ready checkout issued (or topped up), for its traveller's manage link. */
  readyEsimOf(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<ReadyEsim>;
  /** Stops retrying postponed placements. */
  close(): void;
}

/** The eSIM a ready checkout issued, for a manage link. */
export interface ReadyEsim {
  esimId: string;
  esimResourceUrl: string | null;
}

/** The widget's view of a checkout. */
export function toCheckout(record: CheckoutRecord): Checkout {
  return {
    id: record.id,
    status: record.status,
    mode: record.mode,
    kind: record.kind,
    // A top-up names the eSIM it tops up from the start; an issue, the eSIM it issued as soon as it exists.
    esimId: record.esimId ?? record.order?.esimId ?? null,
    amount: record.amount,
    plan: record.plan,
    email: record.email,
    locale: record.locale,
    failure: record.failure,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The partner server's view of a checkout. */
export function toPartnerCheckout(record: CheckoutRecord): PartnerCheckout {
  return {
    ...toCheckout(record),
    widgetId: record.widgetId,
    externalRef: record.id,
    paymentReference: record.paymentReference,
    order: record.order === null ? null : { id: record.order.id, status: record.order.status },
  };
}

const hash = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);
const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;
/** A new checkout id (chosen before the create does anything, so a retry can resume it). */
export const newCheckoutId = () => newId('chk');

/** The {@link CheckoutService}. */
export function createCheckoutService(options: CheckoutServiceOptions): CheckoutService {
  const { store, logger, secrets, statusCacheMs, funding } = options;
  const now = options.now ?? Date.now;
  const repository: CheckoutRepository = createCheckoutRepository(store, options.observer);
  const sync = createCheckoutSync({
    repository,
    logger,
    statusCacheMs,
    resumeIntervalMs: options.resumeIntervalMs,
    now,
  });
  const { refresh, place } = sync;

  async function loadForWidget(
    caller: SessionCaller,
    id: string,
    clientSecret: string | undefined,
  ): Promise<Stored<CheckoutRecord>> {
    const stored = await repository.getCheckout(id);
    assertWidgetAccess(
      stored?.record,
      { widgetId: caller.widget.config.id, origin: caller.claims.org },
      secrets.matches(id, clientSecret),
    );
    return stored as Stored<CheckoutRecord>;
  }

  async function loadForPartner(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    id: string,
  ): Promise<{ stored: Stored<CheckoutRecord>; widget: WidgetRuntime }> {
    const stored = await repository.getCheckout(id);
    const widget = stored === null ? undefined : widgets.get(stored.record.widgetId);
    if (stored === null || widget === undefined) throw new ApiError('checkout_not_found');
    return { stored, widget };
  }

  /**
   * The one way a checkout is cancelled, by the partner's server or by its traveller: only while it awaits
   * payment; cancelling a cancelled checkout again answers it as it is. `load` reads the checkout afresh
   * (with the caller's access check) for every compare-and-set round.
   */
  async function cancel(
    load: () => Promise<{ stored: Stored<CheckoutRecord>; widget: WidgetRuntime }>,
    by: 'partner' | 'traveller',
  ): Promise<CheckoutRecord> {
    for (let round = 0; round < 5; round += 1) {
      const { stored, widget } = await load();
      const current = await refresh(stored, widget);
      const record = current.record;
      if (record.status === 'cancelled') return record;
      if (record.status !== 'awaiting_payment') {
        throw new ApiError('invalid_transition', { params: { status: record.status } });
      }
      const moved = await repository.updateCheckout(current, { ...record, status: 'cancelled' });
      if (moved !== null) {
        logger.info('checkout cancelled', { checkoutId: record.id, widgetId: record.widgetId, by });
        return moved.record;
      }
    }
    throw idempotencyConflict('in_progress');
  }

  /**
   * A new (or resumed) checkout as its create answers it: a `direct` one with its order placed, or still
   * `placing` when another worker holds the placement or the upstream asked to wait.
   */
  async function placed(record: CheckoutRecord, widget: WidgetRuntime): Promise<CreatedCheckout> {
    const current = record.mode === 'direct' ? (await place(record.id, widget)).record : record;
    if (current.status === 'failed' && current.failure !== null) {
      // The upstream refused the order outright (price_changed, insufficient_balance, …): nothing was sold,
      // so the create answers that refusal and the widget can re-quote or explain.
      const code = ApiErrorCodeSchema.safeParse(current.failure.code);
      throw new ApiError(code.success ? code.data : 'internal', {
        params: { checkoutId: record.id, retryable: current.failure.retryable },
      });
    }
    return { ...toCheckout(current), clientSecret: secrets.secretFor(record.id) };
  }

  /**
   * The eSIM a ready `issue` checkout issued, while it is not installed: installation data and delivery links
   * are given for nothing else (a top-up's eSIM was installed long ago; an installed one is on its device).
   */
  async function installableEsim(stored: Stored<CheckoutRecord>, widget: WidgetRuntime) {
    const { record, order } = await readyOrder(stored, widget);
    if (record.kind !== 'issue') throw new ApiError('esim_not_found', { params: { reason: 'top_up' } });
    const resourceUrl = order.esimResourceUrl ?? (await widget.upstream.getOrder(order.id)).esim?.resourceUrl;
    if (resourceUrl === undefined || resourceUrl === null) {
      throw new ApiError('esim_not_found', { params: { reason: 'not_issued' } });
    }
    const esim = await widget.upstream.getEsim(resourceUrl);
    assertNotInstalled(esim);
    return { record, order, esim };
  }

  /** The installation data of a ready checkout's eSIM, as the traveller's widget and the partner's server read it. */
  async function installationOf(
    stored: Stored<CheckoutRecord>,
    widget: WidgetRuntime,
  ): Promise<Installation> {
    const { record, esim } = await installableEsim(stored, widget);
    return { checkoutId: record.id, ...installationData(esim) };
  }

  async function readyOrder(stored: Stored<CheckoutRecord>, widget: WidgetRuntime) {
    const current = await refresh(stored, widget);
    const order = current.record.order;
    if (current.record.status !== 'ready' || order === null) {
      throw new ApiError('esim_not_found', {
        params: { status: current.record.status, reason: 'not_ready' },
      });
    }
    return { record: current.record, order };
  }

  /**
   * Spend caps of `direct` checkout in `live`: counts the spend, or refuses (and gives back) a spend over either
   * cap. Returns how to give the spend back when the checkout does not happen after all.
   */
  async function reserveSpend(
    caller: SessionCaller,
    wholesale: NonNegativeMoney,
  ): Promise<() => Promise<void>> {
    const { config } = caller.widget;
    const nothing = async () => {};
    if (config.environment !== 'live' || config.checkoutMode !== 'direct') return nothing;
    const day = new Date(now()).toISOString().slice(0, 10);
    const caps = [
      { scope: 'session', cap: config.limits.maxSpendPerSession, name: `spend:session:${caller.claims.sid}` },
      { scope: 'day', cap: config.limits.maxSpendPerDay, name: `spend:day:${config.id}:${day}` },
    ] as const;
    const taken: string[] = [];
    for (const { scope, cap, name } of caps) {
      // No cap or another currency: the config schema requires caps, so refuse rather than spend unbounded.
      const amount = wholesale.amountMinor;
      const counter = await store.increment(STORE_KEYS.counter(name), amount, 25 * 60 * 60 * 1000);
      taken.push(name);
      if (cap === undefined || cap.currency !== wholesale.currency || counter.count > cap.amountMinor) {
        for (const giveBack of taken) {
          await store.increment(STORE_KEYS.counter(giveBack), -amount, 25 * 60 * 60 * 1000);
        }
        throw new ApiError('order_limit_exceeded', { params: { cap: scope } });
      }
    }
    return async () => {
      for (const name of taken) {
        await store.increment(STORE_KEYS.counter(name), -wholesale.amountMinor, 25 * 60 * 60 * 1000);
      }
    };
  }

  return {
    async createQuote(caller, body, idempotencyKey) {
      const { claims, widget } = caller;
      await enforceLimit(store, {
        name: `quotes:${claims.sid}`,
        limit: widget.config.limits.quotesPerSession,
        windowMs: SESSION_QUOTA_WINDOW_MS,
      });
      const locale = body.locale ?? widget.config.defaultLocale;
      const esimId = body.esimId ?? null;
      if (esimId === null) {
        // The offer must be one this widget sells (and throws offer_not_found otherwise).
        await widget.catalog.planForOffer(body.offerId, locale);
      } else {
        // A top-up: only for the eSIM the manage token opens; the upstream checks the offer tops it up.
        assertManagesEsim(caller.manage, caller.widget.config, esimId);
        if (!(await widget.catalog.fitness()).offersTopUps) {
          throw new ApiError('action_not_available', { params: { action: 'top_up' } });
        }
      }
      const upstreamQuote = await widget.upstream.createQuote(
        esimId === null ? { offerId: body.offerId } : { offerId: body.offerId, esimId },
        { idempotencyKey: `quote-${claims.sid}-${hash(idempotencyKey)}` },
      );
      const { plan, price } = await widget.catalog.quotedPlan(upstreamQuote, locale);
      const record: QuoteRecord = {
        id: newId('quo'),
        widgetId: widget.config.id,
        sessionId: claims.sid,
        upstreamQuoteId: upstreamQuote.id,
        offerId: upstreamQuote.offerId,
        kind: esimId === null ? 'issue' : 'top_up',
        esimId,
        plan,
        price,
        wholesale: upstreamQuote.price,
        checkoutId: null,
        createdAt: new Date(now()).toISOString(),
        expiresAt: upstreamQuote.expiresAt,
      };
      const ttl = Math.max(0, Date.parse(record.expiresAt) - now()) + QUOTE_GRACE_MS;
      await repository.insertQuote(record, ttl);
      return {
        id: record.id,
        offerId: record.offerId,
        kind: record.kind,
        esimId: record.esimId,
        plan,
        price,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      };
    },

    async createCheckout(caller, body, id) {
      const { claims, widget } = caller;
      const config = widget.config;
      if (config.emailRequired && body.email === undefined) {
        throw new ApiError('validation_failed', { params: { field: 'email', reason: 'required' } });
      }
      const quote = await repository.getQuote(body.quoteId);
      if (quote === null || quote.record.sessionId !== claims.sid || quote.record.widgetId !== config.id) {
        throw new ApiError('quote_not_found', { params: { field: 'quoteId' } });
      }
      if (quote.record.esimId !== null)
        assertManagesEsim(caller.manage, caller.widget.config, quote.record.esimId);
      const time = now();
      const quoteExpired = Date.parse(quote.record.expiresAt) <= time;
      const paymentDeadline = time + config.paymentWindowMinutes * 60_000;
      // The quote's price holds until its expiry: a payment awaited longer could not be honoured.
      const expiresAt = new Date(Math.min(paymentDeadline, Date.parse(quote.record.expiresAt))).toISOString();
      const status = config.checkoutMode === 'direct' ? 'placing' : 'awaiting_payment';
      // A retry whose key was taken over from a lost holder (see http/idempotency.ts) finds the quote taken by
      // this very checkout id: it resumes that checkout instead of hearing quote_consumed.
      let resumed = quote.record.checkoutId === id;
      if (!resumed) {
        if (quoteExpired) throw new ApiError('quote_expired');
        if (quote.record.checkoutId !== null) throw new ApiError('quote_consumed');
        await enforceLimit(store, {
          name: `checkouts:${claims.sid}`,
          limit: config.limits.checkoutsPerSession,
          windowMs: SESSION_QUOTA_WINDOW_MS,
        });
        // Before anyone is asked to pay: the partner's account must fund the order, less what others hold.
        await funding?.hold(widget, id, quote.record.wholesale, funding.holdUntil({ status, expiresAt }));
        // The spend is counted before the quote is taken: a checkout over a cap leaves the quote unused.
        const giveBackSpend = await reserveSpend(caller, quote.record.wholesale).catch(
          async (error: unknown) => {
            await funding?.release(widget, id);
            throw error;
          },
        );
        // One checkout per quote: taken by compare-and-set, so a double submit with two keys gets quote_consumed.
        const quoteTtl = Math.max(0, Date.parse(quote.record.expiresAt) - time) + QUOTE_GRACE_MS;
        if (!(await repository.updateQuote(quote, { ...quote.record, checkoutId: id }, quoteTtl))) {
          await giveBackSpend();
          // Taken meanwhile by a stalled holder of this same key (same id, same funding hold): resume with it.
          resumed = (await repository.getQuote(body.quoteId))?.record.checkoutId === id;
          if (!resumed) {
            await funding?.release(widget, id);
            throw new ApiError('quote_consumed');
          }
        }
      }
      const existing = resumed ? await repository.getCheckout(id) : null;
      if (existing !== null) {
        logger.warn('checkout create resumed', {
          checkoutId: id,
          widgetId: config.id,
          status: existing.record.status,
        });
        return await placed(existing.record, widget);
      }
      // A holder lost between taking the quote and writing the checkout: this retry writes it.
      if (resumed && quoteExpired) throw new ApiError('quote_expired');

      const createdAt = new Date(time).toISOString();
      const record: CheckoutRecord = {
        id,
        widgetId: config.id,
        environment: config.environment,
        sessionId: claims.sid,
        origin: claims.org,
        mode: config.checkoutMode,
        kind: quote.record.kind,
        esimId: quote.record.esimId,
        status,
        upstreamQuoteId: quote.record.upstreamQuoteId,
        amount: quote.record.price,
        wholesale: quote.record.wholesale,
        plan: quote.record.plan,
        email: body.email ?? null,
        locale: body.locale,
        failure: null,
        paymentReference: null,
        order: null,
        placement: { attempts: 0, leaseUntil: null },
        syncedAt: null,
        expiresAt,
        createdAt,
        updatedAt: createdAt,
      };
      if (!(await repository.insertCheckout(record))) throw new ApiError('internal');
      if (resumed)
        logger.warn('checkout create resumed: written after its holder was lost', { checkoutId: id });
      logger.info('checkout created', { checkoutId: id, widgetId: config.id, mode: record.mode });
      return await placed(record, widget);
    },

    async readCheckout(caller, id, clientSecret) {
      const stored = await loadForWidget(caller, id, clientSecret);
      return toCheckout((await refresh(stored, caller.widget)).record);
    },

    async cancelCheckout(caller, id, clientSecret) {
      const load = async () => ({
        stored: await loadForWidget(caller, id, clientSecret),
        widget: caller.widget,
      });
      return toCheckout(await cancel(load, 'traveller'));
    },

    clientSecretOf: (id) => secrets.secretFor(id),

    async installation(caller, id, clientSecret) {
      return await installationOf(await loadForWidget(caller, id, clientSecret), caller.widget);
    },

    async partnerInstallation(widgets, id) {
      const { stored, widget } = await loadForPartner(widgets, id);
      return await installationOf(stored, widget);
    },

    async createDeliveryLink(caller, id, clientSecret, body, idempotencyKey) {
      const { order } = await installableEsim(await loadForWidget(caller, id, clientSecret), caller.widget);
      const link = await caller.widget.upstream.createDeliveryLink(order.id, body, {
        idempotencyKey: `checkout-${id}-link-${hash(`${caller.claims.sid}:${idempotencyKey}`)}`,
      });
      return { id: link.id, url: link.url, maxViews: link.maxViews, expiresAt: link.expiresAt };
    },

    async partnerRead(widgets, id) {
      const { stored, widget } = await loadForPartner(widgets, id);
      return toPartnerCheckout((await refresh(stored, widget, { afterSale: true })).record);
    },

    async partnerConfirm(widgets, id, body) {
      const { widget } = await loadForPartner(widgets, id);
      for (let round = 0; round < 5; round += 1) {
        const stored = await refresh((await loadForPartner(widgets, id)).stored, widget);
        const record = stored.record;
        if (record.mode !== 'partner_confirm') {
          throw new ApiError('invalid_transition', {
            params: { status: record.status, reason: 'direct_checkout' },
          });
        }
        if (record.status !== 'awaiting_payment') {
          // Confirming twice is fine (the partner may retry); confirming a dead checkout is not.
          if (['placing', 'provisioning', 'ready'].includes(record.status)) return toPartnerCheckout(record);
          throw new ApiError('invalid_transition', { params: { status: record.status } });
        }
        const moved = await repository.updateCheckout(stored, {
          ...record,
          status: 'placing',
          paymentReference: body.paymentReference ?? null,
        });
        if (moved === null) continue;
        logger.info('checkout confirmed', { checkoutId: id, widgetId: record.widgetId });
        return toPartnerCheckout((await place(id, widget)).record);
      }
      throw idempotencyConflict('in_progress');
    },

    async partnerCancel(widgets, id) {
      return toPartnerCheckout(await cancel(() => loadForPartner(widgets, id), 'partner'));
    },

    async watch(id, widgets) {
      const stored = await repository.getCheckout(id);
      const widget = stored === null ? undefined : widgets.get(stored.record.widgetId);
      if (stored === null || widget === undefined) return null;
      return (await refresh(stored, widget)).record;
    },

    async readyEsimOf(caller, id, clientSecret) {
      const stored = await loadForWidget(caller, id, clientSecret);
      const { record, order } = await readyOrder(stored, caller.widget);
      if (record.kind === 'top_up' && record.esimId !== null) {
        return { esimId: record.esimId, esimResourceUrl: null };
      }
      let esimId = order.esimId;
      let esimResourceUrl = order.esimResourceUrl;
      if (esimId === null) {
        const fresh = await caller.widget.upstream.getOrder(order.id);
        esimId = fresh.esim?.id ?? null;
        esimResourceUrl = fresh.esim?.resourceUrl ?? null;
      }
      if (esimId === null) throw new ApiError('esim_not_found', { params: { reason: 'not_issued' } });
      return { esimId, esimResourceUrl };
    },

    close() {
      sync.close();
    },
  };
}
