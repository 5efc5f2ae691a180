/**
 * The install step through the real element against a fake BFF: the traveller's platform first, the QR code
 * offered for another device on a phone and first on a computer, copying, "send to my phone", and a failed order.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { buyAndInstall, cleanUpPage, fillCheckout, followOrder, openCheckout } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

/** Whether `later` comes after `earlier` in the document (what a traveller reads first). */
function follows(earlier: Element, later: Element): boolean {
  return Boolean(earlier.compareDocumentPosition(later) & Node.DOCUMENT_POSITION_FOLLOWING);
}

describe('install', () => {
  it('on an iPhone puts the iPhone install link first and leaves out "send to my phone"', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15',
      languages: ['en'],
      language: 'en',
    });
    const widget = await buyAndInstall(new FakeBff());
    const links = widget.view.getAllByRole('link', { name: /^Install on/ });
    expect(links.map((link) => link.textContent)).toEqual(['Install on iPhone', 'Install on Android']);
    expect(links[0]?.getAttribute('part')).toBe('primary-button');
    expect(widget.view.queryByRole('button', { name: 'Send to my phone' })).toBeNull();
    const steps = widget.view.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(steps.indexOf('On iPhone')).toBeLessThan(steps.indexOf('On Android'));
  });

  it('on a phone puts the one-tap install first and offers the QR code for another phone or tablet', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
      languages: ['en'],
      language: 'en',
    });
    const widget = await buyAndInstall(new FakeBff());
    const install = widget.view.getByRole('link', { name: 'Install on Android' });
    const qr = widget.view.getByRole('img', { name: 'QR code that installs the eSIM' });
    const heading = widget.view.getByRole('heading', { name: 'To install on another phone or tablet' });
    expect(follows(install, heading)).toBe(true);
    expect(follows(heading, qr)).toBe(true);
    expect(widget.view.getByText('Scan this QR code with the other device’s camera:')).toBeTruthy();
    // Nothing asks the traveller to scan the phone they hold with its own camera.
    expect(widget.view.queryByText(/with the phone’s camera/)).toBeNull();
  });

  it('on a computer shows the QR code first, for the phone', async () => {
    const widget = await buyAndInstall(new FakeBff());
    const qr = widget.view.getByRole('img', { name: 'QR code that installs the eSIM' });
    const intro = widget.view.getByText('Scan this QR code with the phone’s camera:');
    expect(follows(intro, qr)).toBe(true);
    for (const link of widget.view.getAllByRole('link', { name: /^Install on/ })) {
      expect(follows(qr, link)).toBe(true);
    }
    expect(widget.view.queryByRole('heading', { name: /another phone or tablet/ })).toBeNull();
  });

  it('copies the activation code and confirms it in a live region', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const widget = await buyAndInstall(new FakeBff());
    fireEvent.click(widget.view.getByRole('button', { name: 'Copy Activation code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ACT-CODE-123'));
    expect(await widget.view.findByText('Activation code copied')).toBeTruthy();
  });

  it('on a computer sends the installation to the phone with a delivery link and its own QR code', async () => {
    const bff = new FakeBff();
    const widget = await buyAndInstall(bff);
    fireEvent.click(widget.view.getByRole('button', { name: 'Send to my phone' }));
    expect(await widget.view.findByText('https://bff.example/d/secret-link-token')).toBeTruthy();
    expect(
      widget.view.getByRole('img', { name: 'QR code with the installation link' }).tagName.toLowerCase(),
    ).toBe('svg');
    const request = bff.requestsTo('POST', /\/delivery-links$/)[0];
    expect(request?.headers['x-checkout-secret']).toBe('secret_chk_quote_1_0123456789abcdef');
    expect(request?.headers['idempotency-key']).toMatch(/^delivery-link-[0-9a-f]{32}$/);
  });

  it('tells the traveller when the order failed and lets them start again', async () => {
    const bff = new FakeBff({ journey: ['placing', 'failed'] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await followOrder(bff);
    expect(await widget.view.findByText(/We could not issue your eSIM/, {}, { timeout: 8000 })).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Start again' }));
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(sessionStorage.getItem('esim-widget:acme:checkout')).toBeNull();
  });
});
