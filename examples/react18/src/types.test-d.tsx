/**
 * Type test, checked by `tsc` (a `@ts-expect-error` that stops failing fails the check): with React 18's types,
 * `<EsimWidget>` types its attributes and events, and `<esim-widget>` itself refuses the `onesim-*` props that
 * React 18 would silently drop.
 */
import type { EsimPurchaseEvent } from '@esim-embed/widget';
import { EsimWidget } from '@esim-embed/widget/react';

export const wrapper = (
  <EsimWidget
    widget-id="acme"
    locale="de"
    className="store"
    onesim-purchase={(event: EsimPurchaseEvent) => event.detail.checkoutId}
  />
);

// @ts-expect-error widget-id is required
export const withoutId = <EsimWidget />;

// @ts-expect-error the handler receives an EsimPurchaseEvent, not a string
export const wrongHandler = <EsimWidget widget-id="acme" onesim-purchase={(event: string) => event} />;

export const element = <esim-widget widget-id="acme" theme="dark" />;

// @ts-expect-error React 18 never listens to a custom element's events: use <EsimWidget>
export const droppedHandler = <esim-widget widget-id="acme" onesim-purchase={() => undefined} />;
