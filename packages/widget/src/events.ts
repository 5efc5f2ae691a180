/**
 * @module
 * The widget's DOM events: one small class per event, all `bubbles` and `composed` so that they leave the
 * shadow root, dash-named so that React 19 (`onesim-checkout`) and Vue (`@esim-checkout`) bind them as they do
 * native events. The detail types are plain and dependency-free: they are part of the published API.
 */

/** An amount in minor units (kopecks, cents) and its currency, as the widget shows it to the traveller. */
export interface EsimMoney {
  amountMinor: number;
  currency: 'RUB' | 'USD';
}

/** What a purchase buys: a new eSIM, or more data on one the traveller has. */
export type EsimPurchaseKind = 'issue' | 'top_up';

/** `esim-ready`: the widget has started and the first screen is shown (the session opens at the quote). */
export interface EsimReadyDetail {
  widgetId: string;
  locale: 'en' | 'ru' | 'es' | 'de' | 'fr';
  environment: 'test' | 'live';
  checkoutMode: 'partner_confirm' | 'direct';
}

/** `esim-quote`: a plan was quoted; the price is held until `expiresAt`. */
export interface EsimQuoteDetail {
  quoteId: string;
  offerId: string;
  amount: EsimMoney;
  expiresAt: string;
}

/**
 * `esim-checkout`: the traveller pressed buy and the checkout exists. In `partner_confirm` mode the host page now
 * takes the payment and its server confirms the checkout; the widget waits for that. Fired again with
 * `resumed: true` when a reloaded page finds the checkout still awaiting payment.
 */
export interface EsimCheckoutDetail {
  checkoutId: string;
  /** `issue`: a new eSIM; `top_up`: more data on the eSIM `esimId`. */
  kind: EsimPurchaseKind;
  /** The eSIM a top-up is for; null for a new eSIM. */
  esimId: string | null;
  mode: 'partner_confirm' | 'direct';
  /** What the traveller pays: charge exactly this. */
  amount: EsimMoney;
  email: string | null;
  /** False when the checkout was just created; true when a reloaded page resumed it awaiting payment. */
  resumed: boolean;
  /**
   * The payment attempt to take now: 1 at first; after a declined payment, when the traveller chose to try
   * another card, the next one (charge it under the key `<checkoutId>:attempt-<attempt>`).
   */
  attempt: number;
}

/**
 * Who offers the traveller the next payment attempt after a decline: the element's `payment-retry` attribute, so
 * that the traveller meets one way to pay again, never two. `widget` (the default): the widget shows “Try another
 * card”, which fires `esim-checkout` for the next attempt; your page closes its payment form on
 * `esim-payment-declined` and opens it again on that `esim-checkout`. `page`: your payment form stays open and
 * takes the next attempt itself (`esim-payment-declined`'s `nextAttempt`); the widget says the payment was declined
 * and shows no button of its own for it.
 */
export type EsimPaymentRetry = 'widget' | 'page';

/**
 * `esim-payment-declined`: your server reported the payment attempt `attempt` declined
 * (`POST /v1/partner/checkouts/{id}/decline`, or the partner SDK's `pay()`). The checkout still awaits
 * payment; the widget says the card was declined and, unless the element's `payment-retry` is `page`, offers
 * to try another, which fires `esim-checkout` again with `attempt: nextAttempt` (see {@link EsimPaymentRetry}).
 */
export interface EsimPaymentDeclinedDetail {
  checkoutId: string;
  kind: EsimPurchaseKind;
  /** The eSIM a top-up is for; null for a new eSIM. */
  esimId: string | null;
  /** The attempt that was declined. */
  attempt: number;
  /** The attempt a new card is charged as. */
  nextAttempt: number;
}

/**
 * `esim-failed`: the purchase failed after the checkout was made (the upstream refused the order or could not
 * issue the eSIM): no eSIM comes of it. In `partner_confirm` mode your server charged and now refunds (it hears
 * `checkout.failed`): `refundedBy` is `partner`, and the widget tells the traveller so. In `direct` mode no
 * payment was taken by the widget's flow: `refundedBy` is null.
 */
export interface EsimFailedDetail {
  checkoutId: string;
  kind: EsimPurchaseKind;
  /** The eSIM a top-up was for; null for a new eSIM. */
  esimId: string | null;
  mode: 'partner_confirm' | 'direct';
  /** Why (`provisioning_failed`, `insufficient_balance`, `upstream_unavailable`, …). */
  code: string;
  /** A new purchase may well succeed. */
  retryable: boolean;
  /** Who gives the traveller's money back: `partner` (your server, on `checkout.failed`), or null. */
  refundedBy: 'partner' | null;
}

/** Why the traveller left a checkout that awaited payment. */
export type EsimCancelReason = 'cancelled' | 'other_plan';

/**
 * `esim-cancel`: the traveller cancelled a checkout that awaited payment (`cancelled`), or cancelled it to choose
 * another plan (`other_plan`). The checkout is `cancelled` now and can no longer be confirmed: close your
 * payment form for it.
 */
export interface EsimCancelDetail {
  checkoutId: string;
  kind: EsimPurchaseKind;
  /** The eSIM a top-up was for; null for a new eSIM. */
  esimId: string | null;
  reason: EsimCancelReason;
}

/** `esim-purchase`: the eSIM is issued and its installation is on screen, or a top-up is on the eSIM. */
export interface EsimPurchaseDetail {
  checkoutId: string;
  kind: EsimPurchaseKind;
  /** The eSIM issued (a new eSIM) or topped up; null only from a BFF too old to name an issued eSIM. */
  esimId: string | null;
  /** What the traveller paid. */
  amount: EsimMoney;
}

/** `esim-error`: something failed; the widget shows the traveller a way forward itself. */
export interface EsimErrorDetail {
  /** The BFF's error code (`quote_expired`, …), or `network_error`. */
  code: string;
  /** The BFF's request id, for support. */
  requestId: string | null;
}

/**
 * `esim-manage-link`: the widget made the link that brings the traveller back to this eSIM (usage, top-up,
 * help). Keep it for the traveller (their account, a receipt email): it holds a secret token in its fragment.
 */
export interface EsimManageLinkDetail {
  /** The page's address with `#esim=<widget id>.<token>` in its fragment (the same link after a reload). */
  url: string;
  esimId: string;
  /** The link's id, to revoke it from your server (`POST /v1/partner/manage-links/{id}/revoke`). */
  manageLinkId: string;
  /** The link works until then (while the plan can be used). */
  expiresAt: string;
}

/** Why a traveller asks for help, in the contract's reason codes. */
export type EsimHelpReason = 'installation_failed' | 'service_defective';

/**
 * `esim-help`: the traveller said the installation failed or the eSIM does not work. The widget shows your
 * support contacts; your server can act (`POST /v1/partner/esims/{esimId}/action-requests`) where
 * `availableActions` allows. The browser never requests a refund itself.
 */
export interface EsimHelpDetail {
  /** The eSIM, when known (always from the eSIM's own view; after a purchase once its manage link exists). */
  esimId: string | null;
  /** The purchase's checkout, when the help comes from the install step. */
  checkoutId: string | null;
  reason: EsimHelpReason;
  /**
   * Action requests your server can make now (`POST /v1/partner/esims/{esimId}/action-requests` accepts
   * them): the eSIM's actions that are `available` or go through the service's `manual_review`, with access
   * `api` or `assisted`. Empty when unknown.
   */
  availableActions: ('cancellation' | 'refund' | 'reissue')[];
}

const EVENT_INIT = { bubbles: true, composed: true } as const;

// A server runtime without `CustomEvent` must still be able to import the package: extend a stand-in there.
const CustomEventBase: typeof CustomEvent =
  globalThis.CustomEvent ?? (class {} as unknown as typeof CustomEvent);

/** Fired once the widget has started and the first screen is shown (the session opens at the quote). */
export class EsimReadyEvent extends CustomEventBase<EsimReadyDetail> {
  static readonly eventName = 'esim-ready';
  constructor(detail: EsimReadyDetail) {
    super(EsimReadyEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when a plan is quoted (also on every re-quote). */
export class EsimQuoteEvent extends CustomEventBase<EsimQuoteDetail> {
  static readonly eventName = 'esim-quote';
  constructor(detail: EsimQuoteDetail) {
    super(EsimQuoteEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when a checkout is created; in `partner_confirm` mode the host takes the payment now. */
export class EsimCheckoutEvent extends CustomEventBase<EsimCheckoutDetail> {
  static readonly eventName = 'esim-checkout';
  constructor(detail: EsimCheckoutDetail) {
    super(EsimCheckoutEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when the traveller cancels a checkout that awaited payment; close the payment form. */
export class EsimCancelEvent extends CustomEventBase<EsimCancelDetail> {
  static readonly eventName = 'esim-cancel';
  constructor(detail: EsimCancelDetail) {
    super(EsimCancelEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/**
 * Fired when the partner reported a declined payment; the widget offers the traveller another card, or leaves
 * that to the page's payment form (`payment-retry="page"`).
 */
export class EsimPaymentDeclinedEvent extends CustomEventBase<EsimPaymentDeclinedDetail> {
  static readonly eventName = 'esim-payment-declined';
  constructor(detail: EsimPaymentDeclinedDetail) {
    super(EsimPaymentDeclinedEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when a purchase failed after its checkout was made; in `partner_confirm` the partner refunds. */
export class EsimFailedEvent extends CustomEventBase<EsimFailedDetail> {
  static readonly eventName = 'esim-failed';
  constructor(detail: EsimFailedDetail) {
    super(EsimFailedEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when the eSIM is ready to install. */
export class EsimPurchaseEvent extends CustomEventBase<EsimPurchaseDetail> {
  static readonly eventName = 'esim-purchase';
  constructor(detail: EsimPurchaseDetail) {
    super(EsimPurchaseEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when a request fails; the widget itself offers the traveller a way forward. */
export class EsimErrorEvent extends CustomEventBase<EsimErrorDetail> {
  static readonly eventName = 'esim-error';
  constructor(detail: EsimErrorDetail) {
    super(EsimErrorEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when the link back to an eSIM is ready, after a purchase. */
export class EsimManageLinkEvent extends CustomEventBase<EsimManageLinkDetail> {
  static readonly eventName = 'esim-manage-link';
  constructor(detail: EsimManageLinkDetail) {
    super(EsimManageLinkEvent.eventName, { ...EVENT_INIT, detail });
  }
}

/** Fired when the traveller asks for help with an eSIM; the widget shows the partner's support contacts. */
export class EsimHelpEvent extends CustomEventBase<EsimHelpDetail> {
  static readonly eventName = 'esim-help';
  constructor(detail: EsimHelpDetail) {
    super(EsimHelpEvent.eventName, { ...EVENT_INIT, detail });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'esim-ready': EsimReadyEvent;
    'esim-quote': EsimQuoteEvent;
    'esim-checkout': EsimCheckoutEvent;
    'esim-cancel': EsimCancelEvent;
    'esim-payment-declined': EsimPaymentDeclinedEvent;
    'esim-failed': EsimFailedEvent;
    'esim-purchase': EsimPurchaseEvent;
    'esim-error': EsimErrorEvent;
    'esim-manage-link': EsimManageLinkEvent;
    'esim-help': EsimHelpEvent;
  }
}
