/**
 * @module
 * Registers `<esim-widget>`. Idempotent: a second call, or a second copy of the package on the same page,
 * keeps the first definition and warns when the versions differ instead of throwing.
 */
import { EsimWidgetElement } from './element/esim-widget.element';

/** The element's tag name. */
export const ESIM_WIDGET_TAG = 'esim-widget';

/**
 * Defines `<esim-widget>` unless it is already defined. Does nothing on a server.
 *
 * @example
 * import { defineEsimWidget } from '@esim-embed/widget';
 * defineEsimWidget();
 */
export function defineEsimWidget(): void {
  if (typeof customElements === 'undefined') return;
  const existing = customElements.get(ESIM_WIDGET_TAG) as
    | (CustomElementConstructor & { version?: string })
    | undefined;
  if (existing) {
    if (existing !== EsimWidgetElement && existing.version !== EsimWidgetElement.version) {
      console.warn(
        `esim-widget: version ${existing.version ?? 'unknown'} is already defined on this page; ${EsimWidgetElement.version} is not used. Load the widget once.`,
      );
    }
    return;
  }
  customElements.define(ESIM_WIDGET_TAG, EsimWidgetElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'esim-widget': EsimWidgetElement;
  }
}
