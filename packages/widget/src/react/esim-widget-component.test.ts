/**
 * `<EsimWidget>` in React (19 here; the React 18 example runs it in the browser suite): it renders
 * `<esim-widget>` with its attributes, hands the `onesim-*` handlers the element's events through
 * `addEventListener`, and removes a handler when it is replaced or when the component unmounts. The element is
 * left undefined so that nothing but the component listens to it.
 */
import { act, createElement, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { EsimWidgetElement } from '../element/esim-widget.element';
import { EsimPurchaseEvent } from '../events';
import { EsimWidget, type EsimWidgetProps } from './esim-widget-component';

const PURCHASE = {
  checkoutId: 'chk_1',
  kind: 'issue',
  esimId: 'esim_1',
  amount: { amountMinor: 1200, currency: 'USD' },
} as const;

let host: HTMLElement;
let root: Root;

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

function render(props: EsimWidgetProps): EsimWidgetElement {
  act(() => root.render(createElement(EsimWidget, props)));
  const element = host.querySelector('esim-widget');
  if (!element) throw new Error('<esim-widget> was not rendered');
  return element as EsimWidgetElement;
}

it('renders <esim-widget> with its attributes and class, and React warns about none', () => {
  const warnings = vi.spyOn(console, 'error');
  const element = render({
    'widget-id': 'acme',
    'api-base': 'https://bff.example',
    locale: 'ru',
    className: 'store',
  });
  expect(element.getAttribute('widget-id')).toBe('acme');
  expect(element.getAttribute('api-base')).toBe('https://bff.example');
  expect(element.getAttribute('locale')).toBe('ru');
  expect(element.getAttribute('class')).toBe('store');
  expect(element.hasAttribute('onesim-purchase')).toBe(false);
  expect(warnings).not.toHaveBeenCalled();
  warnings.mockRestore();
});

it('hands the element’s events to the handler props, and only to the current handler', () => {
  const first = vi.fn();
  const element = render({ 'widget-id': 'acme', 'onesim-purchase': first });
  element.dispatchEvent(new EsimPurchaseEvent(PURCHASE));
  expect(first).toHaveBeenCalledTimes(1);
  expect(first.mock.calls[0]?.[0].detail).toEqual(PURCHASE);

  const second = vi.fn();
  render({ 'widget-id': 'acme', 'onesim-purchase': second });
  element.dispatchEvent(new EsimPurchaseEvent(PURCHASE));
  expect(first).toHaveBeenCalledTimes(1);
  expect(second).toHaveBeenCalledTimes(1);

  render({ 'widget-id': 'acme' });
  element.dispatchEvent(new EsimPurchaseEvent(PURCHASE));
  expect(second).toHaveBeenCalledTimes(1);
});

it('stops listening when it unmounts, and gives its ref the element', () => {
  const onPurchase = vi.fn();
  const ref = createRef<EsimWidgetElement>();
  act(() =>
    root.render(createElement(EsimWidget, { ref, 'widget-id': 'acme', 'onesim-purchase': onPurchase })),
  );
  const element = ref.current;
  expect(element?.tagName).toBe('ESIM-WIDGET');
  act(() => root.render(null));
  expect(ref.current).toBeNull();
  element?.dispatchEvent(new EsimPurchaseEvent(PURCHASE));
  expect(onPurchase).not.toHaveBeenCalled();
});
