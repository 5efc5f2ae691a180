/**
 * Type test: `<esim-widget>` in Preact's JSX, the element in `HTMLElementTagNameMap` and the events in
 * `GlobalEventHandlersEventMap`. Checked by `tsc`.
 */
import { expectTypeOf } from 'vitest';
import type { EsimCheckoutEvent, EsimPurchaseEvent } from '../events';
import type { EsimWidgetElement } from '../index';

export const complete = (
  <esim-widget
    widget-id="acme"
    locale="de"
    theme="dark"
    class="store"
    onesim-checkout={(event) => expectTypeOf(event).toEqualTypeOf<EsimCheckoutEvent>()}
    onesim-purchase={(event) => expectTypeOf(event.detail.checkoutId).toBeString()}
  />
);

// @ts-expect-error widget-id is required
export const withoutId = <esim-widget />;

// @ts-expect-error only the five locales
export const unknownLocale = <esim-widget widget-id="acme" locale="pt" />;

export function listen(element: HTMLElement): void {
  expectTypeOf(document.createElement('esim-widget')).toEqualTypeOf<EsimWidgetElement>();
  element.addEventListener('esim-checkout', (event) => {
    expectTypeOf(event).toEqualTypeOf<EsimCheckoutEvent>();
    expectTypeOf(event.detail.amount.currency).toEqualTypeOf<'RUB' | 'USD'>();
  });
  element.addEventListener('esim-purchase', (event) =>
    expectTypeOf(event).toEqualTypeOf<EsimPurchaseEvent>(),
  );
}
