/**
 * Type test: the after-sale events are typed on `addEventListener` (through `GlobalEventHandlersEventMap`)
 * and in React's JSX, and a purchase's kind is one of two. Checked by `tsc`.
 */
import { expectTypeOf } from 'vitest';
import {
  type EsimCheckoutDetail,
  type EsimHelpEvent,
  type EsimManageLinkEvent,
  EsimPurchaseEvent,
} from '../events';
import type {} from '../react';
import type { EsimWidgetEventHandlers } from './jsx-attributes.gen';

declare const element: HTMLElement;

element.addEventListener('esim-manage-link', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimManageLinkEvent>();
  expectTypeOf(event.detail.url).toBeString();
  expectTypeOf(event.detail.esimId).toBeString();
});

element.addEventListener('esim-help', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimHelpEvent>();
  expectTypeOf(event.detail.esimId).toEqualTypeOf<string | null>();
  expectTypeOf(event.detail.reason).toEqualTypeOf<'installation_failed' | 'service_defective'>();
  expectTypeOf(event.detail.availableActions).toEqualTypeOf<('cancellation' | 'refund' | 'reissue')[]>();
});

expectTypeOf<EsimCheckoutDetail['kind']>().toEqualTypeOf<'issue' | 'top_up'>();
expectTypeOf<NonNullable<EsimWidgetEventHandlers['onesim-help']>>()
  .parameter(0)
  .toEqualTypeOf<EsimHelpEvent>();

export const purchase = new EsimPurchaseEvent({
  checkoutId: 'chk_1',
  // @ts-expect-error a purchase is an issue or a top-up
  kind: 'refund',
  esimId: null,
  amount: { amountMinor: 300, currency: 'USD' },
});
