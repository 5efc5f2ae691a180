/**
 * The `partner_confirm` waiting screen through the real element against a fake BFF: the time left to pay,
 * Cancel and "Choose another plan" (the checkout cancelled with its client secret, `esim-cancel` for the host
 * page), a partner confirm that wins the race, a reload that tells the host page again (`resumed: true`), and a
 * decline: no spinner, one way to pay again (the widget's, or the page's own form with `payment-retry="page"`).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { type MountedWidget, mountWidget } from '../../testing/mount-widget';
import { passTime, runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, followOrder, openCheckout, statusReads } from '../../testing/traveller';
import { spinner } from '../ui/controls.css';

runOnTestClock();
afterEach(cleanUpPage);

const STORED = 'esim-widget:acme:checkout';

async function awaitingPayment(
  bff: FakeBff,
  attributes: Record<string, string> = {},
): Promise<MountedWidget> {
  const widget = await mountWidget(bff, attributes);
  await openCheckout(widget);
  fillCheckout(widget);
  fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
  await widget.view.findByRole('heading', { name: 'Complete your payment' });
  return widget;
}

const confirmMode = (options: ConstructorParameters<typeof FakeBff>[0]) =>
  new FakeBff({ config: { checkoutMode: 'partner_confirm' }, ...options });

/** What on the widget's screen says that something is under way: a spinner, a busy region, a current step. */
function busyMarks({ element }: MountedWidget): Element[] {
  return [
    ...(element.shadowRoot?.querySelectorAll(
      `.${spinner}, [aria-busy="true"], [role="progressbar"], [aria-current="step"]`,
    ) ?? []),
  ];
}

/** The actions the widget puts forward as the step's main one. */
function primaryActions({ element }: MountedWidget): string[] {
  return [...(element.shadowRoot?.querySelectorAll('[part~="primary-button"]') ?? [])].map(
    (action) => action.textContent ?? '',
  );
}

/** Declines the first payment attempt and waits until the widget says so. */
async function declined(bff: FakeBff, widget: MountedWidget): Promise<void> {
  bff.declinePayment('chk_quote_1');
  await followOrder(bff, 2);
  await widget.view.findByRole('heading', { name: 'Payment declined' }, { timeout: 5000 });
}

describe('waiting for the payment', () => {
  it('a declined payment: said so, the page told, and another card opens the payment again', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    bff.declinePayment('chk_quote_1');
    await followOrder(bff, 2);
    expect(
      await widget.view.findByRole('heading', { name: 'Payment declined' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(widget.view.getByRole('alert').textContent).toBe(
      'Your payment was declined. Try another card or another way to pay.',
    );
    expect(
      widget.events.filter((event) => event.type === 'esim-payment-declined').map((e) => e.detail),
    ).toEqual([{ checkoutId: 'chk_quote_1', kind: 'issue', esimId: null, attempt: 1, nextAttempt: 2 }]);
    // Still payable: the time left, Cancel, and another card.
    expect(widget.view.getByRole('timer')).toBeTruthy();
    expect(widget.view.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Try another card' }));
    expect(widget.view.getByRole('heading', { name: 'Complete your payment' })).toBeTruthy();
    const checkouts = widget.events.filter((event) => event.type === 'esim-checkout');
    expect(checkouts.map((event) => [event.detail.attempt, event.detail.resumed])).toEqual([
      [1, false],
      [2, false],
    ]);
    // A second decline is told again, once.
    bff.declinePayment('chk_quote_1');
    await followOrder(bff, 3);
    expect(
      await widget.view.findByRole('heading', { name: 'Payment declined' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(widget.events.filter((event) => event.type === 'esim-payment-declined')).toHaveLength(2);
  });

  it('from the third decline: says how many and links the partner support; at the cap, no other card', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    for (let attempt = 1; attempt <= 3; attempt += 1) bff.declinePayment('chk_quote_1');
    await followOrder(bff, 2);
    expect(
      await widget.view.findByRole('heading', { name: 'Payment declined' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(widget.view.getByRole('alert').textContent).toBe(
      'Your payment was declined 3 times. Try a different card or another way to pay, or contact Acme Travel for help.',
    );
    const support = widget.view.getByRole('link', { name: 'Contact Acme Travel' });
    expect(support.getAttribute('href')).toBe('https://acme.test/help');
    fireEvent.click(widget.view.getByRole('button', { name: 'Try another card' }));
    await widget.view.findByRole('heading', { name: 'Complete your payment' });
    expect(widget.view.queryByRole('link', { name: 'Contact Acme Travel' })).toBeNull();

    // The BFF's cap (10 declines): nothing more can be charged, so no other card is offered.
    for (let attempt = 4; attempt <= 10; attempt += 1) bff.declinePayment('chk_quote_1');
    await followOrder(bff, statusReads(bff).length + 1);
    expect(
      await widget.view.findByRole('heading', { name: 'Payment declined' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(widget.view.getByRole('alert').textContent).toBe(
      'Your payment was declined too many times: no more attempts can be made for this purchase. Contact Acme Travel for help, or cancel.',
    );
    expect(widget.view.queryByRole('button', { name: 'Try another card' })).toBeNull();
    expect(widget.view.getByRole('link', { name: 'Contact Acme Travel' })).toBeTruthy();
    expect(widget.view.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('while the payment is awaited a spinner says so; after a decline none turns, and one next step is offered', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    await followOrder(bff, 1);
    await waitFor(() => expect(busyMarks(widget)).not.toEqual([]));
    await declined(bff, widget);
    expect(busyMarks(widget)).toEqual([]);
    expect(widget.view.queryByText('Waiting for the payment')).toBeNull();
    expect(primaryActions(widget)).toEqual(['Try another card']);
    // Another card: the payment is awaited again, and says so.
    fireEvent.click(widget.view.getByRole('button', { name: 'Try another card' }));
    expect(busyMarks(widget)).not.toEqual([]);
  });

  it('with payment-retry="page" the page’s own payment form takes the next attempt: the widget offers no card of its own', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff, { 'payment-retry': 'page' });
    await declined(bff, widget);
    expect(widget.view.getByRole('alert').textContent).toBe(
      'Your payment was declined. Try another card or another way to pay.',
    );
    expect(busyMarks(widget)).toEqual([]);
    expect(widget.view.queryByRole('button', { name: 'Try another card' })).toBeNull();
    expect(primaryActions(widget)).toEqual([]);
    // The page heard of the decline, with the attempt its form charges next; the widget hands nothing over again.
    expect(
      widget.events
        .filter((event) => event.type === 'esim-payment-declined')
        .map((e) => e.detail.nextAttempt),
    ).toEqual([2]);
    expect(widget.events.filter((event) => event.type === 'esim-checkout')).toHaveLength(1);
    // The traveller can still leave.
    expect(widget.view.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // A page that hands the retry back to the widget gets the button at once.
    widget.element.paymentRetry = 'widget';
    expect(await widget.view.findByRole('button', { name: 'Try another card' })).toBeTruthy();
  });

  it('counts down the payment window', async () => {
    const widget = await awaitingPayment(confirmMode({ journey: ['awaiting_payment'] }));
    const timer = await widget.view.findByRole('timer');
    // The fake's checkout runs 30 minutes.
    expect(timer.textContent).toMatch(/^Time left to pay: (30:00|29:[0-5]\d)$/);
    const first = timer.textContent;
    // A second of the widget's time later it shows a second less.
    await passTime(1000);
    await waitFor(() => expect(widget.view.getByRole('timer').textContent).not.toBe(first), {
      timeout: 2500,
    });
  });

  it('Cancel cancels the checkout with its secret, tells the host page and offers to start again', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    fireEvent.click(widget.view.getByRole('button', { name: 'Cancel' }));
    // The partner may have charged meanwhile: the widget says who refunds, never that nothing was charged.
    expect(
      await widget.view.findByText(
        'The purchase was cancelled. If any money was taken, Acme Travel refunds it.',
      ),
    ).toBeTruthy();
    const [request] = bff.requestsTo('POST', /\/cancel$/);
    expect(request?.path).toBe('/v1/checkouts/chk_quote_1/cancel');
    expect(request?.headers['x-checkout-secret']).toBe('secret_chk_quote_1_0123456789abcdef');
    expect(request?.cache).toBe('no-store');
    expect(bff.cancelled).toEqual(new Set(['chk_quote_1']));
    expect(widget.events.find((event) => event.type === 'esim-cancel')?.detail).toEqual({
      checkoutId: 'chk_quote_1',
      kind: 'issue',
      esimId: null,
      reason: 'cancelled',
    });
    expect(sessionStorage.getItem(STORED)).toBeNull();
    expect(widget.view.queryByRole('timer')).toBeNull();
    expect(widget.view.queryByRole('button', { name: 'Cancel' })).toBeNull();
    const startAgain = widget.view.getByRole('button', { name: 'Start again' });
    await waitFor(() => expect(widget.element.shadowRoot?.activeElement).toBe(startAgain));
    fireEvent.click(startAgain);
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });

  it('Choose another plan cancels the checkout and opens the plans of the same destination', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    fireEvent.click(widget.view.getByRole('button', { name: 'Choose another plan' }));
    expect(await widget.view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
    expect(bff.cancelled).toEqual(new Set(['chk_quote_1']));
    expect(widget.events.find((event) => event.type === 'esim-cancel')?.detail).toMatchObject({
      checkoutId: 'chk_quote_1',
      reason: 'other_plan',
    });
    expect(sessionStorage.getItem(STORED)).toBeNull();
  });

  it('when the partner confirmed first, Cancel is refused and the purchase goes on', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const widget = await awaitingPayment(bff);
    bff.failNext('POST', /\/cancel$/, 'invalid_transition', 409, { status: 'placing' });
    fireEvent.click(widget.view.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(bff.requestsTo('POST', /\/cancel$/)).toHaveLength(1));
    await waitFor(() =>
      expect(widget.view.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', false),
    );
    expect(widget.view.queryByRole('alert')).toBeNull();
    expect(widget.events.filter((event) => event.type === 'esim-cancel')).toEqual([]);
    expect(sessionStorage.getItem(STORED)).not.toBeNull();
  });
});

describe('a reload while the payment is awaited', () => {
  it('fires esim-checkout again with resumed: true, once', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment'] });
    const first = await awaitingPayment(bff);
    expect(first.events.find((event) => event.type === 'esim-checkout')?.detail.resumed).toBe(false);
    first.element.remove();
    const second = await mountWidget(bff);
    await second.view.findByRole('heading', { name: 'Complete your payment' });
    await waitFor(() =>
      expect(second.events.find((event) => event.type === 'esim-checkout')?.detail).toEqual({
        checkoutId: 'chk_quote_1',
        kind: 'issue',
        esimId: null,
        mode: 'partner_confirm',
        attempt: 1,
        amount: { amountMinor: 450, currency: 'USD' },
        email: 'traveller@example.com',
        resumed: true,
      }),
    );
    // Later status reads do not repeat it.
    await followOrder(bff, statusReads(bff).length + 3);
    expect(second.events.filter((event) => event.type === 'esim-checkout')).toHaveLength(1);
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1);
  }, 10_000);

  it('does not fire it for a resumed checkout that is past the payment', async () => {
    const bff = confirmMode({ journey: ['awaiting_payment', 'provisioning'] });
    const first = await awaitingPayment(bff);
    first.element.remove();
    const second = await mountWidget(bff);
    await second.view.findByRole('heading', { name: 'Preparing your eSIM' });
    expect(second.events.filter((event) => event.type === 'esim-checkout')).toEqual([]);
  });
});
