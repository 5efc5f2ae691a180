/**
 * A checkout that gives no eSIM ends under a heading that names its end (never "Preparing your eSIM" over
 * "The purchase was cancelled"), with what it means and the way to start again.
 */
import type { CheckoutStatus } from '@esim-embed/shared';
import { fireEvent } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, followOrder, openCheckout } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

const ENDINGS: [CheckoutStatus, string, RegExp][] = [
  ['cancelled', 'Purchase cancelled', /The purchase was cancelled/],
  ['expired', 'Time to pay ran out', /not completed in time/],
  ['failed', 'Purchase failed', /could not issue your eSIM/],
];

describe('what a failed purchase says about the money', () => {
  it('partner_confirm: the partner took the payment and refunds it, and esim-failed tells the page', async () => {
    const bff = new FakeBff({
      config: { checkoutMode: 'partner_confirm' },
      journey: ['awaiting_payment', 'failed'],
    });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await followOrder(bff);
    expect(
      await widget.view.findByRole('heading', { name: 'Purchase failed' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(
      widget.view.getByText('We could not issue your eSIM. Acme Travel is refunding your payment now.'),
    ).toBeTruthy();
    expect(widget.view.queryByText(/not been charged/)).toBeNull();
    expect(widget.events.find((event) => event.type === 'esim-failed')?.detail).toEqual({
      checkoutId: 'chk_quote_1',
      kind: 'issue',
      esimId: null,
      mode: 'partner_confirm',
      code: 'upstream_unavailable',
      retryable: true,
      refundedBy: 'partner',
    });
  });

  it('direct: no payment was taken by the purchase, and the widget says so', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'direct' }, journey: ['failed'] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await followOrder(bff);
    expect(
      await widget.view.findByText(
        'We could not issue your eSIM. You have not been charged for it.',
        undefined,
        {
          timeout: 5000,
        },
      ),
    ).toBeTruthy();
    expect(widget.events.find((event) => event.type === 'esim-failed')?.detail).toMatchObject({
      mode: 'direct',
      refundedBy: null,
    });
  });
});

describe('the end of a checkout that gives no eSIM', () => {
  for (const [status, heading, message] of ENDINGS) {
    it(`${status}: under the heading "${heading}"`, async () => {
      const bff = new FakeBff({
        config: { checkoutMode: 'partner_confirm' },
        journey: ['awaiting_payment', status],
      });
      const widget = await mountWidget(bff);
      await openCheckout(widget);
      fillCheckout(widget);
      fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
      await followOrder(bff);
      expect(await widget.view.findByRole('heading', { name: heading }, { timeout: 5000 })).toBeTruthy();
      expect(widget.view.getByText(message)).toBeTruthy();
      expect(
        widget.view.queryByRole('heading', { name: /Preparing your eSIM|Complete your payment/ }),
      ).toBeNull();
      expect(widget.view.getByRole('button', { name: 'Start again' })).toBeTruthy();
    });
  }
});
