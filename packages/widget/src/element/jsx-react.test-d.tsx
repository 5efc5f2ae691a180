/** @jsxImportSource react */
/**
 * Type test: `<esim-widget>` in React 19's JSX, with typed attributes and `onesim-*` event props.
 * Checked by `tsc` (a `@ts-expect-error` that stops failing fails the check).
 */
import { expectTypeOf } from 'vitest';
import type { EsimCheckoutEvent, EsimErrorEvent, EsimMoney } from '../events';
import type {} from '../react';

export const complete = (
  <esim-widget
    widget-id="acme"
    api-base="https://bff.example"
    locale="ru"
    country="TR"
    theme="auto"
    payment-retry="page"
    className="store"
    onesim-checkout={(event) => {
      expectTypeOf(event).toEqualTypeOf<EsimCheckoutEvent>();
      expectTypeOf(event.detail.checkoutId).toBeString();
      expectTypeOf(event.detail.amount).toEqualTypeOf<EsimMoney>();
    }}
    onesim-error={(event) => expectTypeOf(event).toEqualTypeOf<EsimErrorEvent>()}
  />
);

// @ts-expect-error widget-id is required
export const withoutId = <esim-widget />;

// @ts-expect-error only the five locales
export const unknownLocale = <esim-widget widget-id="acme" locale="it" />;

// @ts-expect-error only light, dark and auto
export const unknownTheme = <esim-widget widget-id="acme" theme="blue" />;

// @ts-expect-error after a decline the widget or the page offers the next attempt, no one else
export const unknownPaymentRetry = <esim-widget widget-id="acme" payment-retry="partner" />;

// @ts-expect-error the handler receives an EsimCheckoutEvent, not a string
export const wrongHandler = <esim-widget widget-id="acme" onesim-checkout={(event: string) => event} />;
