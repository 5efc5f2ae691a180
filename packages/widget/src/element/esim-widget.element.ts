/**
 * @module
 * The `<esim-widget>` element class. Importing it has no side effect (it is registered by `define.ts`) and
 * is safe on a server: nothing here touches `window` until the element is constructed in a browser. The class
 * is tiny on purpose: when an instance connects it loads the app (Preact, styles, the flow) lazily and mounts
 * it into its shadow root; when it disconnects the app unmounts and every request in flight is aborted.
 */
import { type EarlyStart, sendStartEarly } from '../api/early-start';
import type { MountedWidgetApp, WidgetAppOptions } from '../app/widget-app';
import type { EsimPaymentRetry } from '../events';

/** The themes the element knows; `auto` follows `prefers-color-scheme`. */
export type EsimWidgetTheme = 'light' | 'dark' | 'auto';

const OBSERVED_ATTRIBUTES = ['widget-id', 'api-base', 'locale', 'country', 'theme', 'payment-retry'] as const;

// On a server `HTMLElement` does not exist: extend a stand-in so that importing the class never throws there.
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/**
 * A travel-eSIM store: search a destination, pick a plan, buy it and install the eSIM, in the partner's brand.
 *
 * @tag esim-widget
 * @summary A travel-eSIM store as a custom element.
 *
 * @event {EsimReadyEvent} esim-ready - The widget has started and the first screen is shown (the session opens at the quote).
 * @event {EsimQuoteEvent} esim-quote - A plan was quoted; the price is held until `detail.expiresAt`.
 * @event {EsimCheckoutEvent} esim-checkout - A checkout was created. In `partner_confirm` mode take the payment now and confirm the checkout from your server. Fired again with `detail.resumed` true when a reloaded page resumes a checkout that awaits payment, and with the next `detail.attempt` when the traveller tries another card after a decline.
 * @event {EsimPaymentDeclinedEvent} esim-payment-declined - Your server reported the payment attempt `detail.attempt` declined. The checkout still awaits payment; the widget says the card was declined and offers to try another (then `esim-checkout` with `detail.attempt` = `detail.nextAttempt`): close your payment form until then. With `payment-retry="page"` your form takes the next attempt instead and the widget offers no button for it.
 * @event {EsimCancelEvent} esim-cancel - The traveller cancelled a checkout that awaited payment (`detail.reason`: `cancelled`, or `other_plan` to choose another plan). Close your payment form: the checkout can no longer be confirmed.
 * @event {EsimFailedEvent} esim-failed - The purchase failed after the checkout was made: no eSIM comes of it. In `partner_confirm` mode your server refunds the payment (`detail.refundedBy` is `partner`); update your page's payment status.
 * @event {EsimDeviceCheckEvent} esim-device-check - Before the buy button, the widget told the traveller whether this device can take an eSIM (`detail.verdict`: `capable`, `incapable` or `unknown`; `detail.device`, `detail.model`). Never blocks the purchase; not fired when your widget's `deviceCheck` is off.
 * @event {EsimPurchaseEvent} esim-purchase - The eSIM is issued and its installation is shown, or a top-up is on the eSIM (`detail.kind` is `top_up`).
 * @event {EsimErrorEvent} esim-error - A request failed; the widget offers the traveller a way forward.
 * @event {EsimManageLinkEvent} esim-manage-link - After a purchase: the link that brings the traveller back to this eSIM (`#esim=<widget id>.<token>`); keep it for them.
 * @event {EsimHelpEvent} esim-help - The traveller says the installation failed or the eSIM does not work; the widget shows your support contacts, your server may act.
 *
 * @csspart container - The widget's outer box.
 * @csspart header - The brand bar with the logo or display name.
 * @csspart logo - The partner's logo image.
 * @csspart content - The current step.
 * @csspart heading - Each step's heading.
 * @csspart button - Every button.
 * @csspart primary-button - The main action of a step (choose, buy, install).
 * @csspart input - Text and email inputs.
 * @csspart destination - A destination in the list.
 * @csspart plan - A plan card.
 * @csspart price - A price.
 * @csspart device-check - The device check before the buy button (`data-verdict`: `capable`, `incapable` or `unknown`).
 * @csspart error - An error message with its way forward.
 * @csspart qr-code - The installation QR code.
 * @csspart footer - The support and legal links.
 *
 * @cssproperty --esim-color-brand - The partner's primary colour (buttons, focus ring). Defaults to the brand colour of the session.
 * @cssproperty --esim-color-on-brand - Text on the brand colour (picked for WCAG AA contrast).
 * @cssproperty --esim-color-brand-text - The brand colour as text on the surface (darkened or lightened for contrast).
 * @cssproperty --esim-color-surface - The widget's background.
 * @cssproperty --esim-color-surface-raised - Cards and inputs.
 * @cssproperty --esim-color-text - Body text.
 * @cssproperty --esim-color-text-muted - Secondary text.
 * @cssproperty --esim-color-border - Borders and dividers.
 * @cssproperty --esim-color-danger - Errors.
 * @cssproperty --esim-color-success - Success marks.
 * @cssproperty --esim-font-family - The font stack: the system UI font by default; `inherit` takes the page's.
 * @cssproperty --esim-font-size - The base font size.
 * @cssproperty --esim-radius - Corner radius of cards, inputs and buttons.
 * @cssproperty --esim-space - The base spacing unit.
 * @cssproperty --esim-max-width - The widget's maximum width.
 *
 * @attr {string} widget-id - The partner's widget id (required).
 * @attr {string} api-base - The BFF's origin. Defaults to the origin `widget.js` was loaded from.
 * @attr {'en' | 'ru' | 'es' | 'de' | 'fr'} locale - The language. Defaults to the page's `lang`, then the browser's language.
 * @attr {string} country - An ISO 3166 code (`TR`) to open that destination's plans directly.
 * @attr {'light' | 'dark' | 'auto'} theme - `light` (default), `dark` or `auto` (follows `prefers-color-scheme`).
 * @attr {'widget' | 'page'} payment-retry - After a declined payment (`partner_confirm`), who offers the next attempt: `widget` (default), its “Try another card” button (close your payment form on `esim-payment-declined`); `page`, your payment form, which stays open (the widget shows no button of its own).
 */
export class EsimWidgetElement extends ElementBase {
  /** The package version that defined the element: `defineEsimWidget` compares it on a second definition. */
  static readonly version: string = __ESIM_WIDGET_VERSION__;

  static get observedAttributes(): readonly string[] {
    return OBSERVED_ATTRIBUTES;
  }

  #app: MountedWidgetApp | null = null;
  /** The start request sent at connection, beside the app chunk's download. */
  #earlyStart: EarlyStart | null = null;
  /** Counts connections, so that an app that finishes loading after a disconnect is not mounted. */
  #connection = 0;

  /** The partner's widget id. */
  get widgetId(): string {
    return this.getAttribute('widget-id') ?? '';
  }
  set widgetId(value: string) {
    this.setAttribute('widget-id', value);
  }

  /** The BFF's origin; defaults to the origin of the script that defined the element. */
  get apiBase(): string {
    return this.getAttribute('api-base') || new URL(import.meta.url).origin;
  }
  set apiBase(value: string) {
    this.setAttribute('api-base', value);
  }

  /** The requested locale (`en`, `ru`, `es`, `de`, `fr`), or `null` to follow the page and the browser. */
  get locale(): string | null {
    return this.getAttribute('locale');
  }
  set locale(value: string | null) {
    this.#reflect('locale', value);
  }

  /** An ISO 3166 country code whose plans open directly, or `null` for the destination search. */
  get country(): string | null {
    return this.getAttribute('country');
  }
  set country(value: string | null) {
    this.#reflect('country', value);
  }

  /** `light` (default), `dark` or `auto`. */
  get theme(): EsimWidgetTheme {
    const value = this.getAttribute('theme');
    return value === 'dark' || value === 'auto' ? value : 'light';
  }
  set theme(value: EsimWidgetTheme) {
    this.setAttribute('theme', value);
  }

  /** After a declined payment, who offers the next attempt: `widget` (default) or `page` (`EsimPaymentRetry`). */
  get paymentRetry(): EsimPaymentRetry {
    return this.getAttribute('payment-retry') === 'page' ? 'page' : 'widget';
  }
  set paymentRetry(value: EsimPaymentRetry) {
    this.setAttribute('payment-retry', value);
  }

  connectedCallback(): void {
    this.#upgradeProperties();
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const connection = ++this.#connection;
    // The start goes out now, not once the app has loaded: on a slow network that is a round trip sooner.
    const earlyStart = sendStartEarly(this.apiBase, this.widgetId);
    this.#earlyStart = earlyStart;
    import('../app/widget-app').then(
      ({ mountWidgetApp }) => {
        if (connection !== this.#connection || !this.isConnected) return;
        this.#app = mountWidgetApp(root, this, this.#options(), earlyStart);
      },
      (cause: unknown) => {
        console.error(
          new Error('esim-widget: the widget app failed to load; check the api-base and CSP', { cause }),
        );
      },
    );
  }

  disconnectedCallback(): void {
    this.#connection++;
    this.#earlyStart?.abort();
    this.#earlyStart = null;
    this.#app?.unmount();
    this.#app = null;
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous !== next && name !== 'theme') this.#app?.update(this.#options());
  }

  #options(): WidgetAppOptions {
    return {
      widgetId: this.widgetId,
      apiBase: this.apiBase,
      locale: this.locale,
      country: this.country,
      paymentRetry: this.paymentRetry,
    };
  }

  #reflect(name: string, value: string | null): void {
    if (value === null || value === '') this.removeAttribute(name);
    else this.setAttribute(name, value);
  }

  /** A property set on the element before it was defined shadows the accessor: move it onto the attribute. */
  #upgradeProperties(): void {
    for (const property of ['widgetId', 'apiBase', 'locale', 'country', 'theme', 'paymentRetry'] as const) {
      if (Object.hasOwn(this, property)) {
        const value = this[property];
        delete (this as Partial<Record<typeof property, unknown>>)[property];
        (this as Record<typeof property, unknown>)[property] = value;
      }
    }
  }
}
