/**
 * The device check in the checkout step, through the real element against a fake BFF: it loads after the plan
 * is chosen, says the computer's advice (`*#06#`) in happy-dom (a desktop user agent), fires
 * `esim-device-check`, and is absent when the partner turned it off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { cleanUpPage, openCheckout } from '../../testing/traveller';

afterEach(cleanUpPage);

describe('the device check before the buy button', () => {
  it('gives a computer the *#06# advice and tells the page', async () => {
    const widget = await mountWidget(new FakeBff());
    expect(widget.element.shadowRoot?.querySelector('[part~="device-check"]')).toBeNull();
    await openCheckout(widget);
    const advice = await widget.view.findByText(/dial \*#06# on it/);
    expect(advice.closest('[part~="device-check"]')?.getAttribute('data-verdict')).toBe('unknown');
    expect(widget.view.getByText(/locked to a carrier/)).toBeTruthy();
    const checks = widget.events.filter((event) => event.type === 'esim-device-check');
    expect(checks.map((event) => event.detail)).toEqual([
      { verdict: 'unknown', device: 'desktop', model: null },
    ]);
    // Before the buy button, in the document's order.
    const buy = widget.view.getByRole('button', { name: /^Buy for / });
    expect(advice.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is not there when the partner turned it off', async () => {
    // Its chunk loaded beforehand: a check shown despite the setting would be there within the wait below.
    await import('./device-check');
    const widget = await mountWidget(new FakeBff({ config: { deviceCheck: false } }));
    await openCheckout(widget);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(widget.element.shadowRoot?.querySelector('[part~="device-check"]')).toBeNull();
    expect(widget.events.some((event) => event.type === 'esim-device-check')).toBe(false);
  });
});
