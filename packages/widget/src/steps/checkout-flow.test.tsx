/**
 * The quote and checkout steps through the real element against a fake BFF: the held price and its
 * countdown, validation, both checkout modes, re-quotes on expiry and on price_changed, a plan that is gone, the
 * step's heading in every language.
 * Refused and not-yet-answered creates: `checkout-refusals.test.tsx`.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { passTimeUntil, runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, followOrder, openCheckout, openPlans } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

/** The checkout step's heading: what the step is, before anything was bought (not "Your eSIM"). */
const CHECKOUT_HEADINGS = {
  en: 'Checkout',
  de: 'Ihre Bestellung',
  es: 'Finalizar compra',
  fr: 'Votre commande',
  ru: 'Оформление заказа',
} as const;

describe('the checkout step’s heading', () => {
  it.each(Object.entries(CHECKOUT_HEADINGS))('in %s names the checkout: %s', async (locale, heading) => {
    const widget = await mountWidget(new FakeBff(), { locale, country: 'TR' });
    await widget.view.findAllByRole('listitem');
    const choose = widget.element.shadowRoot?.querySelector<HTMLButtonElement>('[part~="plan"] button');
    if (!choose) throw new Error('no plan to choose');
    fireEvent.click(choose);
    expect(await widget.view.findByRole('heading', { level: 2, name: heading })).toBeTruthy();
  });
});

describe('quote and checkout', () => {
  it('quotes the plan with a countdown and fires esim-quote', async () => {
    const widget = await mountWidget(new FakeBff());
    await openCheckout(widget);
    expect(widget.view.getByRole('timer').textContent).toMatch(/Price held for (9:59|10:00)/);
    const quote = widget.events.find((event) => event.type === 'esim-quote');
    expect(quote?.detail).toMatchObject({
      quoteId: 'quote_1',
      offerId: 'off_small',
      amount: { amountMinor: 450 },
    });
  });

  it('moves focus to the heading of each new step', async () => {
    const widget = await mountWidget(new FakeBff());
    await openPlans(widget);
    const heading = widget.view.getByRole('heading', { name: /eSIM plans for Turkey/ });
    expect(widget.element.shadowRoot?.activeElement).toBe(heading);
  });

  it('validates the email and the consent before it buys', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    const { view } = widget;
    fireEvent.click(view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(view.getByText('Enter your email address.')).toBeTruthy();
    expect(view.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    fireEvent.input(view.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(view.getByText('Enter an email address like name@example.com.')).toBeTruthy();
    fireEvent.input(view.getByLabelText('Email'), { target: { value: 'a@b.co' } });
    fireEvent.click(view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(view.getByText('Accept the terms to continue.')).toBeTruthy();
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(0);
    expect(view.getAllByRole('link', { name: 'Terms' })[0]?.getAttribute('href')).toBe(
      'https://acme.test/terms',
    );
  });

  it('buys in direct mode, follows the order and shows the installation with a QR code drawn as SVG', async () => {
    const bff = new FakeBff({ journey: ['placing', 'provisioning', 'ready'] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    const buy = widget.view.getByRole('button', { name: 'Buy for $4.50' });
    fireEvent.click(buy);
    fireEvent.click(buy);
    await waitFor(() => expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1));
    const checkouts = bff.requestsTo('POST', /^\/v1\/checkouts$/);
    expect(checkouts[0]?.headers['idempotency-key']).toBe('checkout-quote_1');
    expect(bff.requestsTo('POST', /^\/v1\/quotes$/)[0]?.headers['idempotency-key']).toMatch(
      /^quote-[0-9a-f]{32}$/,
    );
    expect(checkouts[0]?.body).toEqual({
      quoteId: 'quote_1',
      email: 'traveller@example.com',
      locale: 'en',
      termsAccepted: true,
    });
    await followOrder(bff);
    expect(
      await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 }),
    ).toBeTruthy();
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1);
    const qr = widget.view.getByRole('img', { name: 'QR code that installs the eSIM' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(widget.view.getByText('smdp.example.com')).toBeTruthy();
    expect(widget.view.getByText('ACT-CODE-123')).toBeTruthy();
    expect(widget.view.getByRole('link', { name: 'Install on iPhone' }).getAttribute('href')).toContain(
      'esimsetup.apple.com',
    );
    const types = widget.events.map((event) => event.type);
    expect(types).toContain('esim-checkout');
    expect(types).toContain('esim-purchase');
    // The host page hears which eSIM it bought, as the checkout names it once issued.
    expect(widget.events.find((event) => event.type === 'esim-purchase')?.detail.esimId).toBe('esim_1');
    const reads = bff.requestsTo('GET', /^\/v1\/checkouts\/chk_quote_1$/);
    expect(reads[0]?.headers['x-checkout-secret']).toBe('secret_chk_quote_1_0123456789abcdef');
    expect(reads[0]?.cache).toBe('no-store');
    expect(bff.requestsTo('GET', /\/installation$/)[0]?.cache).toBe('no-store');
  }, 15_000);

  it('in partner_confirm mode fires esim-checkout and waits visibly for the payment', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' }, journey: ['awaiting_payment'] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(await widget.view.findByRole('heading', { name: 'Complete your payment' })).toBeTruthy();
    expect(widget.view.getByText(/We continue as soon as Acme Travel confirms it/)).toBeTruthy();
    const checkout = widget.events.find((event) => event.type === 'esim-checkout');
    expect(checkout?.detail).toEqual({
      checkoutId: 'chk_quote_1',
      kind: 'issue',
      esimId: null,
      mode: 'partner_confirm',
      amount: { amountMinor: 450, currency: 'USD' },
      email: 'traveller@example.com',
      resumed: false,
      attempt: 1,
    });
  });

  it('goes on to the installation once the partner has confirmed the payment', async () => {
    const bff = new FakeBff({
      config: { checkoutMode: 'partner_confirm' },
      journey: ['awaiting_payment', 'placing', 'provisioning', 'ready'],
    });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(await widget.view.findByRole('heading', { name: 'Complete your payment' })).toBeTruthy();
    await followOrder(bff);
    expect(
      await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(widget.events.map((event) => event.type)).toContain('esim-purchase');
  });

  it('re-quotes when the price hold runs out and shows a changed price before buying', async () => {
    const bff = new FakeBff({ quoteTtlMs: 1200, quotePrices: [450, 500] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    const quotes = () => bff.requestsTo('POST', /^\/v1\/quotes$/);
    // The countdown runs out on the widget's clock: a new quote once the first one's 1.2 s have passed.
    await passTimeUntil(() => quotes().length === 2, 4000);
    expect((quotes()[1]?.at ?? 0) - (quotes()[0]?.at ?? 0)).toBeGreaterThanOrEqual(1200);
    expect(
      await widget.view.findByText('The price has changed from $4.50 to $5.00.', {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(widget.view.getByRole('button', { name: 'Buy for $5.00' })).toBeTruthy();
    expect(bff.requestsTo('POST', /^\/v1\/quotes$/)).toHaveLength(2);
  });

  it('on price_changed at checkout gets a new quote and shows the new price; the traveller buys again', async () => {
    const bff = new FakeBff({ quotePrices: [450, 520] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'price_changed', 409);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(await widget.view.findByText('The price has changed from $4.50 to $5.20.')).toBeTruthy();
    const buy = await widget.view.findByRole('button', { name: 'Buy for $5.20' });
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1);
    fireEvent.click(buy);
    await waitFor(() =>
      expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)[1]?.body).toMatchObject({ quoteId: 'quote_2' }),
    );
  });

  it('on quote_expired at checkout re-quotes by itself', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'quote_expired', 410);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', /^\/v1\/quotes$/)).toHaveLength(2));
    expect(await widget.view.findByRole('button', { name: 'Buy for $4.50' })).toBeTruthy();
  });

  it('on offer_not_found offers another plan and goes back to the plans', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openPlans(widget);
    bff.failNext('POST', /^\/v1\/quotes$/, 'offer_not_found', 404);
    fireEvent.click(widget.view.getByRole('button', { name: /1 GB, 7 days/ }));
    expect(
      await widget.view.findByText('This plan is no longer available. Please choose another one.'),
    ).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Choose another plan' }));
    expect(await widget.view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
  });
});
