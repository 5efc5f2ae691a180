/**
 * Type test: `esim-device-check` is typed on `addEventListener` (through `GlobalEventHandlersEventMap`) and in
 * the JSX typings, with a verdict of three words. Checked by `tsc`.
 */
import { expectTypeOf } from 'vitest';
import { EsimDeviceCheckEvent, type EsimDeviceVerdict } from './device-check-event';
import type { EsimWidgetEventHandlers } from './element/jsx-attributes.gen';

declare const element: HTMLElement;

element.addEventListener('esim-device-check', (event) => {
  expectTypeOf(event).toEqualTypeOf<EsimDeviceCheckEvent>();
  expectTypeOf(event.detail.verdict).toEqualTypeOf<'capable' | 'incapable' | 'unknown'>();
  expectTypeOf(event.detail.model).toEqualTypeOf<string | null>();
});

expectTypeOf<NonNullable<EsimWidgetEventHandlers['onesim-device-check']>>()
  .parameter(0)
  .toEqualTypeOf<EsimDeviceCheckEvent>();
expectTypeOf<EsimDeviceVerdict>().toEqualTypeOf<'capable' | 'incapable' | 'unknown'>();

export const check = new EsimDeviceCheckEvent({
  // @ts-expect-error the verdict is one of three words
  verdict: 'maybe',
  device: 'android',
  model: null,
});
