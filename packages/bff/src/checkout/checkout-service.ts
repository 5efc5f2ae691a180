/**
 * @module
 * The sale: quotes and checkouts bound to the session that made them, the two checkout modes (`direct`
 * places the order at once, `partner_confirm` waits for the partner's server), installation data and
 * delivery links for the holder of the client secret, the partner's confirm, and one cancel for the partner and
 * the traveller. Status sync and order placement live in `checkout-sync.ts` and `order-placement.ts`.
 *
 * This file holds the service's interface and its composition; each concern is its own file: `quoting.ts`,
 * `checkout-creation.ts` (with `spend-caps.ts`), `checkout-reads.ts`, `issued-esim.ts`, `confirm-and-cancel.ts`,
 * over what they share in `checkout-context.ts`.
 */
import type {
  Checkout,
  ConfirmCheckoutRequest,
  CreateCheckoutRequest,
  CreateDeliveryLinkRequest,
  CreatedCheckout,
  CreateQuoteRequest,
  DeclineCheckoutPaymentRequest,
  Installation,
  PartnerCheckout,
  Quote,
  WidgetDeliveryLink,
} from '@esim-embed/shared';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import type { CheckoutSecrets } from './checkout-access';
import type { CheckoutContext, SessionCaller } from './checkout-context';
import { checkoutCreation } from './checkout-creation';
import type { CheckoutFunding } from './checkout-funding';
import { checkoutReads } from './checkout-reads';
import type { CheckoutRecord, CheckoutRepository } from './checkout-record';
import { createCheckoutSync } from './checkout-sync';
import { confirmAndCancel } from './confirm-and-cancel';
import { issuedEsim, type ReadyEsim } from './issued-esim';
import { paymentStart } from './payment-start';
import { quoting } from './quoting';

// The routes, the after-sale service and the webhooks import the sale from here.
export type { SessionCaller } from './checkout-context';
export { toCheckout, toPartnerCheckout } from './checkout-reads';
export type { ReadyEsim } from './issued-esim';

export interface CheckoutServiceOptions {
  store: Store;
  logger: Logger;
  secrets: CheckoutSecrets;
  /** How long a checkout's status is served from the store before the upstream order is read again. */
  statusCacheMs: number;
  /** How long a placement stays this instance's after its last heartbeat (another takes it over). Default 5 s. */
  placementLeaseMs?: number;
  /**
   * How often this instance retries the placements it postponed, so that an order is placed after an
   * upstream outage even when nobody polls the checkout any more (the traveller closed the tab). Default 5 s.
   */
  resumeIntervalMs?: number;
  /** The checkouts (checkout-transitions.ts: every change of status written through it sets its reactions off). */
  repository: CheckoutRepository;
  /** Checks and holds the partner's funding before a checkout exists (absent: no funding check). */
  funding?: CheckoutFunding;
  now?: () => number;
}

/** The sale's operations, called by the widget and partner routes. */
export interface CheckoutService {
  // quoting.ts
  createQuote(caller: SessionCaller, body: CreateQuoteRequest, idempotencyKey: string): Promise<Quote>;
  // checkout-creation.ts
  /**
   * The checkout of a quote. `id` is chosen with the create's idempotency key: a retry that took the key over
   * from a lost holder passes the same id and resumes that checkout (written if missing, placement carried on).
   */
  createCheckout(caller: SessionCaller, body: CreateCheckoutRequest, id: string): Promise<CreatedCheckout>;
  /** The checkout's client secret, recomputed (a replayed create puts it back into its kept answer). */
  clientSecretOf(id: string): string;
  /**
   * The id of the checkout made under a create's idempotency key (as stored): the same for every retry of it, so
   * that a retry after a failover that lost the first attempt's records reaches that checkout and its order.
   */
  checkoutIdFor(createKey: string): string;
  // checkout-reads.ts
  readCheckout(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Checkout>;
  /**
   * The partner's view; `widgets` are the widgets whose partner secret the caller presented. `fresh`: the
   * upstream order is read past the status cache (a refund that just completed).
   */
  partnerRead(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    id: string,
    options?: { fresh?: boolean },
  ): Promise<PartnerCheckout>;
  /** The checkout brought up to date with its upstream order (the background watch), or null when gone. */
  watch(id: string, widgets: ReadonlyMap<string, WidgetRuntime>): Promise<CheckoutRecord | null>;
  // issued-esim.ts
  installation(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Installation>;
  /** The installation data of a ready checkout's eSIM, for the partner to send the traveller (not yet installed). */
  partnerInstallation(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<Installation>;
  createDeliveryLink(
    caller: SessionCaller,
    id: string,
    clientSecret: string | undefined,
    body: CreateDeliveryLinkRequest,
    idempotencyKey: string,
  ): Promise<WidgetDeliveryLink>;
  /** The eSIM a ready checkout issued (or topped up), for its traveller's manage link. */
  readyEsimOf(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<ReadyEsim>;
  // confirm-and-cancel.ts
  partnerConfirm(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    id: string,
    body: ConfirmCheckoutRequest,
  ): Promise<PartnerCheckout>;
  partnerCancel(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerCheckout>;
  /** The partner reports a declined payment attempt: the checkout keeps awaiting payment (another card). */
  partnerDeclinePayment(
    widgets: ReadonlyMap<string, WidgetRuntime>,
    id: string,
    body: DeclineCheckoutPaymentRequest,
  ): Promise<PartnerCheckout>;
  /** The traveller abandons a checkout that awaits payment (the holder of the client secret). */
  cancelCheckout(caller: SessionCaller, id: string, clientSecret: string | undefined): Promise<Checkout>;
  // payment-start.ts
  /** The partner starts taking the payment: the order is funded now and its hold kept for that payment, within caps. */
  partnerPaymentStarted(widgets: ReadonlyMap<string, WidgetRuntime>, id: string): Promise<PartnerCheckout>;
  /** Stops retrying postponed placements; resolves once a retry under way has finished. */
  close(): Promise<void>;
}

/** The {@link CheckoutService}: one part per concern, over one shared context. */
export function createCheckoutService(options: CheckoutServiceOptions): CheckoutService {
  const { store, logger, secrets, statusCacheMs, funding, repository } = options;
  const now = options.now ?? Date.now;
  const sync = createCheckoutSync({
    repository,
    logger,
    statusCacheMs,
    placementLeaseMs: options.placementLeaseMs,
    resumeIntervalMs: options.resumeIntervalMs,
    now,
  });
  const context: CheckoutContext = { store, logger, secrets, repository, sync, funding, now };
  return {
    ...quoting(context),
    ...checkoutCreation(context),
    ...checkoutReads(context),
    ...issuedEsim(context),
    ...confirmAndCancel(context),
    ...paymentStart(context),
    close() {
      return sync.close();
    },
  };
}
