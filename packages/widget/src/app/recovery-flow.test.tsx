/**
 * Recovery without the traveller's help (lost session, lost network, a reload mid-purchase) and when the
 * widget cannot start (origin refused, BFF unavailable).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { passTime, passTimeUntil, runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, openCheckout, waitForAllDestinations } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

const destinationReads = (bff: FakeBff) => bff.requestsTo('GET', /\/destinations$/);

describe('recovery by itself', () => {
  it('replaces an expired session and repeats the request once', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    bff.failNext('POST', /^\/v1\/quotes$/, 'widget_session_invalid', 401);
    await openCheckout(widget);
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(2);
    expect(bff.requestsTo('POST', /^\/v1\/quotes$/).at(-1)?.headers.authorization).toBe('Bearer token-2');
  });

  it('retries after a network loss without the traveller doing anything', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /\/destinations$/, 'network');
    const widget = await mountWidget(bff);
    // The client's first pause after a network failure (500 ms) on the widget's clock, then the read again.
    await waitFor(() => expect(destinationReads(bff)).not.toHaveLength(0));
    await passTimeUntil(() => destinationReads(bff).length === 2, 3000);
    await waitForAllDestinations(widget);
    expect(destinationReads(bff)).toHaveLength(2);
  });

  it('when the network stays down, says so and tries again as soon as the browser is online', async () => {
    const bff = new FakeBff();
    for (let i = 0; i < 4; i++) bff.failNext('GET', /\/destinations$/, 'network');
    const widget = await mountWidget(bff);
    // The client's three pauses between attempts (0.5 s, 1.5 s, 4 s) pass on the widget's clock.
    await waitFor(() => expect(destinationReads(bff)).not.toHaveLength(0));
    await passTimeUntil(() => destinationReads(bff).length === 4, 9000);
    expect(await widget.view.findByText(/You seem to be offline/, {}, { timeout: 9000 })).toBeTruthy();
    // Preact runs effects after the next frame: let the notice start listening before the network returns.
    await passTime(100);
    window.dispatchEvent(new Event('online'));
    await waitForAllDestinations(widget);
  }, 15_000);

  it('resumes a checkout after a reload from sessionStorage', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' }, journey: ['awaiting_payment'] });
    const first = await mountWidget(bff);
    await openCheckout(first);
    fillCheckout(first);
    fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
    await first.view.findByRole('heading', { name: 'Complete your payment' });
    first.element.remove();
    const second = await mountWidget(bff);
    expect(await second.view.findByRole('heading', { name: 'Complete your payment' })).toBeTruthy();
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1);
  });

  it('shows the end of a failed checkout and starts again', async () => {
    sessionStorage.setItem(
      'esim-widget:acme:checkout',
      JSON.stringify({ id: 'chk_gone', clientSecret: 'x'.repeat(20) }),
    );
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    expect(await widget.view.findByText(/We could not find this purchase/)).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Start again' }));
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(sessionStorage.getItem('esim-widget:acme:checkout')).toBeNull();
  });
});

describe('when the widget cannot start', () => {
  it('says the store is not available here when the origin is refused, without a pointless retry', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /^\/v1\/widgets\/acme\/start$/, 'widget_origin_forbidden', 403);
    const { view, events } = await mountWidget(bff);
    expect(await view.findByText('This store is not available on this website right now.')).toBeTruthy();
    expect(view.queryByRole('button')).toBeNull();
    expect(events.find((event) => event.type === 'esim-error')?.detail).toEqual({
      code: 'widget_origin_forbidden',
      requestId: 'req_test',
    });
  });

  it('offers a retry when the BFF is unavailable, and recovers', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /^\/v1\/widgets\/acme\/start$/, 'upstream_unavailable', 503);
    const { view } = await mountWidget(bff);
    fireEvent.click(await view.findByRole('button', { name: 'Try again' }));
    expect(await view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });
});
