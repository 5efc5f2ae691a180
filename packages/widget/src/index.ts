/**
 * @module
 * `@esim-embed/widget`: the `<esim-widget>` element class, its registration, its events, its JSX
 * typings, and the Content-Security-Policy a page needs for it. Importing this module defines nothing
 * (call `defineEsimWidget()`, or import `@esim-embed/widget/define`) and is safe on a server.
 */
import './element/jsx-preact';

export {
  type CspDirectives,
  formatCsp,
  type PartnerCspOptions,
  partnerCsp,
  strictPartnerCsp,
} from './csp/partner-csp';
export { defineEsimWidget, ESIM_WIDGET_TAG } from './define';
export * from './device-check-event';
export { EsimWidgetElement, type EsimWidgetTheme } from './element/esim-widget.element';
export type { EsimWidgetAttributes, EsimWidgetEventHandlers } from './element/jsx-attributes.gen';
export * from './events';
