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

/** `esim-ready`: the session is open and the first screen is shown. */
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
 * `esim-checkout`: the traveller pressed buy. In `partner_confirm` mode the host page now takes the payment
 * and its server confirms the checkout; the widget waits for that.
 */
export interface EsimCheckoutDetail {
  checkoutId: string;
  mode: 'partner_confirm' | 'direct';
  amount: number;
  currency: 'RUB' | 'USD';
  email: string | null;
}

/** `esim-purchase`: the eSIM is issued and its installation is on screen. */
export interface EsimPurchaseDetail {
  checkoutId: string;
  amount: number;
  currency: 'RUB' | 'USD';
}

/** `esim-error`: something failed; the widget shows the traveller a way forward itself. */
export interface EsimErrorDetail {
  /** The BFF's error code (`quote_expired`, …), or `network_error`. */
  code: string;
  /** The BFF's request id, for support. */
  requestId: string | null;
}

const EVENT_INIT = { bubbles: true, composed: true } as const;

// A server runtime without `CustomEvent` must still be able to import the package: extend a stand-in there.
const CustomEventBase: typeof CustomEvent =
  globalThis.CustomEvent ?? (class {} as unknown as typeof CustomEvent);

/** Fired once the session is open and the first screen is shown. */
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

declare global {
  interface GlobalEventHandlersEventMap {
    'esim-ready': EsimReadyEvent;
    'esim-quote': EsimQuoteEvent;
    'esim-checkout': EsimCheckoutEvent;
    'esim-purchase': EsimPurchaseEvent;
    'esim-error': EsimErrorEvent;
  }
}
