/**
 * The element as a guest on someone else's page: defined twice, several instances, removed mid-request,
 * attributes and properties in sync.
 */
import { waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { defineEsimWidget } from '../define';
import { EsimWidgetElement } from './esim-widget.element';

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('definition', () => {
  it('defines the element once; a second definition is harmless and silent', () => {
    const warn = vi.spyOn(console, 'warn');
    defineEsimWidget();
    defineEsimWidget();
    expect(customElements.get('esim-widget')).toBe(EsimWidgetElement);
    expect(document.createElement('esim-widget')).toBeInstanceOf(EsimWidgetElement);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns instead of throwing when another version already defined the tag', async () => {
    // A fresh copy of the module stands in for a second copy of the package on the page.
    vi.resetModules();
    const other = await import('./esim-widget.element');
    Object.defineProperty(other.EsimWidgetElement, 'version', { value: '0.0.1-other' });
    const { defineEsimWidget: defineOther } = await import('../define');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    defineEsimWidget();
    expect(() => defineOther()).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('is already defined on this page'));
  });
});

describe('attributes and properties', () => {
  it('reflects properties to attributes and back, with the documented defaults', () => {
    defineEsimWidget();
    const element = document.createElement('esim-widget');
    expect(element.theme).toBe('light');
    expect(element.locale).toBeNull();
    expect(element.apiBase).toBe(new URL(import.meta.url).origin);
    expect(element.paymentRetry).toBe('widget');
    element.widgetId = 'acme';
    element.locale = 'de';
    element.country = 'TR';
    element.theme = 'dark';
    element.apiBase = 'https://bff.example';
    expect(element.getAttribute('widget-id')).toBe('acme');
    expect(element.getAttribute('locale')).toBe('de');
    expect(element.getAttribute('country')).toBe('TR');
    expect(element.getAttribute('theme')).toBe('dark');
    expect(element.apiBase).toBe('https://bff.example');
    element.locale = null;
    expect(element.hasAttribute('locale')).toBe(false);
    element.setAttribute('theme', 'auto');
    expect(element.theme).toBe('auto');
    element.paymentRetry = 'page';
    expect(element.getAttribute('payment-retry')).toBe('page');
    element.setAttribute('payment-retry', 'something else');
    expect(element.paymentRetry).toBe('widget');
  });

  it('keeps a property set before the element was upgraded', async () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    const element = document.createElement('esim-widget') as HTMLElement & {
      widgetId?: string;
      apiBase?: string;
    };
    element.widgetId = 'acme';
    element.apiBase = 'https://bff.test';
    document.body.append(element);
    defineEsimWidget();
    await waitFor(() => expect(bff.requestsTo('GET', /^\/v1\/widgets\/acme\/start$/)).toHaveLength(1));
    expect(bff.requests[0]?.path).toBe('/v1/widgets/acme/start');
    expect(element.getAttribute('widget-id')).toBe('acme');
  });
});

describe('lifecycle', () => {
  it('runs two instances independently, each with its own start and step', async () => {
    const first = new FakeBff();
    const one = await mountWidget(first);
    const two = await mountWidget(first, { country: 'TR' });
    expect(await one.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(await two.view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
    expect(first.requestsTo('GET', /^\/v1\/widgets\/acme\/start$/)).toHaveLength(2);
    expect(first.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(0);
  });

  it('aborts the requests in flight when removed, and starts afresh when added again', async () => {
    const bff = new FakeBff();
    bff.hanging.push(/\/destinations$/);
    const { element } = await mountWidget(bff);
    await waitFor(() => expect(bff.requestsTo('GET', /\/destinations$/)).toHaveLength(1));
    const pending = bff.requestsTo('GET', /\/destinations$/)[0];
    expect(pending?.signal?.aborted).toBe(false);
    element.remove();
    expect(pending?.signal?.aborted).toBe(true);
    expect(element.shadowRoot?.childNodes).toHaveLength(0);
    expect(element.shadowRoot?.adoptedStyleSheets).toHaveLength(0);
    bff.hanging.length = 0;
    document.body.append(element);
    await waitFor(() => expect(element.shadowRoot?.textContent).toContain('Turkey'));
    expect(bff.requestsTo('GET', /^\/v1\/widgets\/acme\/start$/)).toHaveLength(2);
  });

  it('does not mount when removed before the app finished loading', async () => {
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    defineEsimWidget();
    const element = document.createElement('esim-widget');
    element.setAttribute('widget-id', 'acme');
    element.setAttribute('api-base', 'https://bff.test');
    document.body.append(element);
    element.remove();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(element.shadowRoot?.childNodes).toHaveLength(0);
    // The start went out as the element connected; the removal aborted it, and nothing else was asked.
    expect(bff.requests.map((request) => request.path)).toEqual(['/v1/widgets/acme/start']);
    expect(bff.requests[0]?.signal?.aborted).toBe(true);
  });

  it('starts afresh when the widget id changes at run time', async () => {
    const bff = new FakeBff();
    const { element } = await mountWidget(bff);
    element.widgetId = 'other-widget';
    await waitFor(() => expect(bff.requestsTo('GET', /\/start$/)).toHaveLength(2));
    expect(bff.requestsTo('GET', /\/start$/)[1]?.path).toBe('/v1/widgets/other-widget/start');
  });

  it('adopts its styles into the shadow root: no <style> element, nothing in the page', async () => {
    const { element } = await mountWidget(new FakeBff());
    await waitFor(() => expect(element.shadowRoot?.adoptedStyleSheets).toHaveLength(2));
    expect(element.shadowRoot?.querySelector('style')).toBeNull();
    const brand = element.shadowRoot?.adoptedStyleSheets[1];
    await waitFor(() => expect(brand?.cssRules[0]?.cssText).toContain('--esim-color-brand: #ffcc00'));
    expect(brand?.cssRules[0]?.cssText).toContain('--esim-color-on-brand: #000000');
  });
});
