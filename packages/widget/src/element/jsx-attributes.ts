/**
 * @module
 * The attributes and event props of `<esim-widget>` in JSX, shared by the React and Preact typings.
 */
import type { EsimWidgetTheme } from './esim-widget.element';
import type {
  EsimCheckoutEvent,
  EsimErrorEvent,
  EsimPurchaseEvent,
  EsimQuoteEvent,
  EsimReadyEvent,
} from './events';

/** The element's attributes. */
export interface EsimWidgetAttributes {
  'widget-id': string;
  'api-base'?: string;
  locale?: 'en' | 'ru' | 'es' | 'de' | 'fr';
  country?: string;
  theme?: EsimWidgetTheme;
}

/** Event props as React 19 and Preact bind them (`on` + the event name). */
export interface EsimWidgetEventHandlers {
  'onesim-ready'?: (event: EsimReadyEvent) => void;
  'onesim-quote'?: (event: EsimQuoteEvent) => void;
  'onesim-checkout'?: (event: EsimCheckoutEvent) => void;
  'onesim-purchase'?: (event: EsimPurchaseEvent) => void;
  'onesim-error'?: (event: EsimErrorEvent) => void;
}
