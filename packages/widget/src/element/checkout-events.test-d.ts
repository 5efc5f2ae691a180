/**
 * Type test: `esim-checkout` says whether a reload resumed the checkout and which payment attempt to take, every
 * event's `amount` is one money object, and `esim-cancel`, `esim-payment-declined` and `esim-failed` are typed on `addEventListener` (through `GlobalEventHandlersEventMap`) and in
 * the JSX typings. Checked by `tsc`.
 */
import { expectTypeOf } from 'vitest';
import {
  type EsimCancelDetail,
  EsimCancelEvent,
  type EsimCheckoutDetail,
  EsimCheckoutEvent,
  EsimFailedEvent,
  type EsimMoney,
  type EsimPaymentDeclinedEvent,
  type EsimPurchaseDetail,
  type EsimQuoteDetail,
} from '../events';
import type { EsimWidgetEventHandlers } from './jsx-attributes.gen';

declare const element: HTMLElement;

element.addEventListener('esim-checkout', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimCheckoutEvent>();
  expectTypeOf(event.detail.resumed).toBeBoolean();
  expectTypeOf(event.detail.amount).toEqualTypeOf<{ amountMinor: number; currency: 'RUB' | 'USD' }>();
});

expectTypeOf<EsimQuoteDetail['amount']>().toEqualTypeOf<EsimMoney>();
expectTypeOf<EsimCheckoutDetail['amount']>().toEqualTypeOf<EsimMoney>();
expectTypeOf<EsimPurchaseDetail['amount']>().toEqualTypeOf<EsimMoney>();
expectTypeOf<EsimCheckoutDetail>().not.toHaveProperty('currency');
expectTypeOf<EsimPurchaseDetail>().not.toHaveProperty('currency');

export const checkout = new EsimCheckoutEvent({
  checkoutId: 'chk_1',
  kind: 'issue',
  esimId: null,
  mode: 'partner_confirm',
  // @ts-expect-error an amount is a money object, not a number beside a currency
  amount: 450,
  email: null,
  resumed: false,
  attempt: 1,
});

element.addEventListener('esim-payment-declined', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimPaymentDeclinedEvent>();
  expectTypeOf(event.detail.attempt).toBeNumber();
  expectTypeOf(event.detail.nextAttempt).toBeNumber();
});

element.addEventListener('esim-failed', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimFailedEvent>();
  expectTypeOf(event.detail.refundedBy).toEqualTypeOf<'partner' | null>();
  expectTypeOf(event.detail.mode).toEqualTypeOf<'partner_confirm' | 'direct'>();
});

expectTypeOf<NonNullable<EsimWidgetEventHandlers['onesim-failed']>>()
  .parameter(0)
  .toEqualTypeOf<EsimFailedEvent>();
expectTypeOf<NonNullable<EsimWidgetEventHandlers['onesim-payment-declined']>>()
  .parameter(0)
  .toEqualTypeOf<EsimPaymentDeclinedEvent>();
expectTypeOf<EsimCheckoutDetail['attempt']>().toBeNumber();

export const failed = new EsimFailedEvent({
  checkoutId: 'chk_1',
  kind: 'issue',
  esimId: null,
  mode: 'partner_confirm',
  code: 'provisioning_failed',
  retryable: true,
  // @ts-expect-error only the partner refunds, or nobody
  refundedBy: 'upstream',
});

element.addEventListener('esim-cancel', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimCancelEvent>();
  expectTypeOf(event.detail.checkoutId).toBeString();
  expectTypeOf(event.detail.reason).toEqualTypeOf<'cancelled' | 'other_plan'>();
  expectTypeOf(event.detail.esimId).toEqualTypeOf<string | null>();
});

expectTypeOf<NonNullable<EsimWidgetEventHandlers['onesim-cancel']>>()
  .parameter(0)
  .toEqualTypeOf<EsimCancelEvent>();
expectTypeOf<EsimCancelDetail['kind']>().toEqualTypeOf<'issue' | 'top_up'>();

export const cancel = new EsimCancelEvent({
  checkoutId: 'chk_1',
  kind: 'issue',
  esimId: null,
  // @ts-expect-error the traveller cancelled or chose another plan; nothing else
  reason: 'expired',
});
