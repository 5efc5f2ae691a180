/**
 * The purchase flow through the real element, against a fake BFF: each step, the hand-offs between them,
 * and the recoveries (expired price, changed price, lost session, lost network, resumed checkout).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, FakeBff } from '../testing/fake-bff';
import { type MountedWidget, mountWidget } from '../testing/mount-widget';

afterEach(() => {
  document.body.replaceChildren();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openPlans({ view }: MountedWidget) {
  fireEvent.click((await view.findAllByRole('button', { name: /Turkey/ }))[0] as HTMLElement);
  await view.findByRole('heading', { name: /eSIM plans for Turkey/ });
  await view.findAllByRole('button', { name: /^Choose / });
}

async function openCheckout(widget: MountedWidget, planLabel = /1 GB, 7 days/) {
  await openPlans(widget);
  fireEvent.click(widget.view.getByRole('button', { name: planLabel }));
  await widget.view.findByRole('heading', { name: 'Your eSIM' });
  await widget.view.findByRole('timer');
}

function fillCheckout({ view }: MountedWidget, email = 'traveller@example.com') {
  fireEvent.input(view.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(view.getByLabelText(/I accept the terms/));
}

describe('destinations', () => {
  it('lists popular destinations first, then regions and countries, and opens the session once', async () => {
    const bff = new FakeBff();
    const { view, events } = await mountWidget(bff);
    expect(await view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    await view.findAllByRole('button', { name: /Turkey/ });
    const headings = view.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Popular destinations', 'Regions', 'Countries']);
    expect(view.getAllByRole('button', { name: /Turkey/ })[0]?.textContent).toContain('from $4.50');
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(1);
    expect(bff.requestsTo('GET', /^\/v1\/destinations/)[0]?.headers.authorization).toBe('Bearer token-1');
    await waitFor(() => expect(events.map((event) => event.type)).toContain('esim-ready'));
  });

  it('searches as you type by localized name, other names and ISO code, and says when nothing matches', async () => {
    const { view } = await mountWidget(new FakeBff());
    const search = await view.findByLabelText('Country, region or code');
    await view.findAllByRole('button', { name: /Turkey/ });
    fireEvent.input(search, { target: { value: 'deutsch' } });
    expect(view.getByRole('heading', { name: 'Results' })).toBeTruthy();
    expect(view.getAllByRole('button', { name: /Germany/ })).toHaveLength(1);
    fireEvent.input(search, { target: { value: 'tr' } });
    expect(view.getAllByRole('button', { name: /Turkey/ })).toHaveLength(1);
    fireEvent.input(search, { target: { value: 'atlantis' } });
    expect(view.getByText(/Nothing found for “atlantis”/)).toBeTruthy();
  });

  it('says so when the catalog is empty', async () => {
    const bff = new FakeBff();
    bff.failures.length = 0;
    const { destinations } = await import('../testing/fake-bff');
    const saved = destinations.splice(0, destinations.length);
    try {
      const { view } = await mountWidget(bff);
      expect(await view.findByText(/No destinations are available/)).toBeTruthy();
    } finally {
      destinations.push(...saved);
    }
  });
});

describe('plans', () => {
  it('shows data, validity, price, features, networks and activation; sorts by price or data', async () => {
    const widget = await mountWidget(new FakeBff());
    await openPlans(widget);
    const { view } = widget;
    const cards = () => view.getAllByRole('listitem').filter((item) => item.getAttribute('part') === 'plan');
    expect(cards().map((card) => card.querySelector('[part="price"]')?.textContent)).toEqual([
      '$4.50',
      '$15.00',
      '$19.00',
    ]);
    const first = cards()[0]?.textContent ?? '';
    expect(first).toContain('1 GB · 7 days');
    expect(first).toContain('5G');
    expect(first).toContain('Hotspot');
    expect(first).toContain('Top-up available');
    expect(first).toContain('Networks: Turkcell, Vodafone');
    expect(first).toContain('Validity starts when you first connect · Activate within 30 days');
    fireEvent.change(view.getByLabelText('Sort by'), { target: { value: 'data' } });
    expect(cards()[0]?.textContent).toContain('Unlimited');
    expect(cards()[1]?.textContent).toContain('10 GB');
  });

  it('opens a destination directly from the country attribute and goes back to the search', async () => {
    const { view } = await mountWidget(new FakeBff(), { country: 'tr' });
    expect(await view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: /Back/ }));
    expect(await view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });

  it('follows a country set at run time', async () => {
    const { view, element } = await mountWidget(new FakeBff());
    await view.findAllByRole('button', { name: /Turkey/ });
    element.country = 'TR';
    expect(await view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
  });

  it('offers another destination when a destination has no plans', async () => {
    const { view } = await mountWidget(new FakeBff(), { country: 'DE' });
    expect(await view.findByText('There are no plans for this destination right now.')).toBeTruthy();
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
      mode: 'partner_confirm',
      amount: 450,
      currency: 'USD',
      email: 'traveller@example.com',
    });
  });

  it('re-quotes when the price hold runs out and shows a changed price before buying', async () => {
    const bff = new FakeBff({ quoteTtlMs: 1200, quotePrices: [450, 500] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
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

  it('on insufficient_balance points to the partner support and says nothing was charged', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'insufficient_balance', 402);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    expect(await widget.view.findByText(/You have not been charged/)).toBeTruthy();
    expect(widget.view.getByRole('link', { name: 'Contact Acme Travel' }).getAttribute('href')).toBe(
      'https://acme.test/help',
    );
    const error = widget.events.find((event) => event.type === 'esim-error');
    expect(error?.detail).toEqual({ code: 'insufficient_balance', requestId: 'req_test' });
  });
});

describe('install', () => {
  async function buyAndInstall(bff: FakeBff) {
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 });
    return widget;
  }

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
    expect(await widget.view.findByText(/We could not issue your eSIM/, {}, { timeout: 8000 })).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Start again' }));
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(sessionStorage.getItem('esim-widget:acme:checkout')).toBeNull();
  });
});

describe('recovery by itself', () => {
  it('replaces an expired session and repeats the request once', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await widget.view.findAllByRole('button', { name: /Turkey/ });
    bff.failNext('GET', /^\/v1\/destinations\/TR\/plans/, 'widget_session_invalid', 401);
    await openPlans(widget);
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(2);
    expect(bff.requestsTo('GET', /^\/v1\/destinations\/TR\/plans/).at(-1)?.headers.authorization).toBe(
      'Bearer token-2',
    );
  });

  it('retries after a network loss without the traveller doing anything', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /^\/v1\/destinations/, 'network');
    const widget = await mountWidget(bff);
    expect(await widget.view.findAllByRole('button', { name: /Turkey/ }, { timeout: 3000 })).toHaveLength(2);
    expect(bff.requestsTo('GET', /^\/v1\/destinations/)).toHaveLength(2);
  });

  it('when the network stays down, says so and tries again as soon as the browser is online', async () => {
    const bff = new FakeBff();
    for (let i = 0; i < 4; i++) bff.failNext('GET', /^\/v1\/destinations/, 'network');
    const widget = await mountWidget(bff);
    expect(await widget.view.findByText(/You seem to be offline/, {}, { timeout: 9000 })).toBeTruthy();
    // Preact runs effects after the next frame: let the notice start listening before the network returns.
    await new Promise((resolve) => setTimeout(resolve, 100));
    window.dispatchEvent(new Event('online'));
    expect(await widget.view.findAllByRole('button', { name: /Turkey/ })).toHaveLength(2);
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

describe('language and brand', () => {
  it('shows the partner logo, and the name instead when the logo does not load', async () => {
    const bff = new FakeBff({
      config: { brand: { ...defaultConfig.brand, logoUrl: 'https://cdn.acme.test/logo.png' } },
    });
    const { view, element } = await mountWidget(bff);
    const logo = await view.findByRole('img', { name: 'Acme Travel' });
    expect(logo.getAttribute('src')).toBe('https://cdn.acme.test/logo.png');
    expect(logo.getAttribute('part')).toBe('logo');
    fireEvent.error(logo);
    await waitFor(() => expect(element.shadowRoot?.querySelector('img')).toBeNull());
    expect(view.getAllByText('Acme Travel').length).toBeGreaterThan(0);
  });

  it('follows the locale attribute, with Russian plurals and the page language as fallback', async () => {
    document.documentElement.lang = 'de';
    const german = await mountWidget(new FakeBff());
    expect(await german.view.findByRole('heading', { name: 'Wohin reisen Sie?' })).toBeTruthy();
    german.element.setAttribute('locale', 'ru');
    expect(await german.view.findByRole('heading', { name: 'Куда вы едете?' })).toBeTruthy();
    expect(german.view.getAllByRole('button', { name: /Турция|Turkey/ })[0]?.textContent).toContain(
      '3 тарифа',
    );
    document.documentElement.lang = '';
  });

  it('keeps to the locales the partner enabled', async () => {
    const { view } = await mountWidget(
      new FakeBff({ config: { locales: ['fr', 'de'], defaultLocale: 'fr' } }),
      {
        locale: 'ru',
      },
    );
    expect(await view.findByRole('heading', { name: 'Où partez-vous ?' })).toBeTruthy();
  });

  it('shows the brand name, the test badge and the support links; every button is type=button', async () => {
    const { view, element } = await mountWidget(new FakeBff());
    await view.findAllByRole('button', { name: /Turkey/ });
    expect(view.getAllByText('Acme Travel').length).toBeGreaterThan(0);
    expect(view.getByText('Test mode: no real purchase')).toBeTruthy();
    expect(view.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe('https://acme.test/help');
    const buttons = [...(element.shadowRoot?.querySelectorAll('button') ?? [])];
    expect(buttons.length).toBeGreaterThan(3);
    for (const button of buttons) expect(button.getAttribute('type')).toBe('button');
  });
});

describe('before a session', () => {
  it('says the store is not available here when the origin is refused, without a pointless retry', async () => {
    const bff = new FakeBff();
    bff.failNext('POST', /^\/v1\/sessions$/, 'widget_origin_forbidden', 403);
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
    bff.failNext('POST', /^\/v1\/sessions$/, 'upstream_unavailable', 503);
    const { view } = await mountWidget(bff);
    fireEvent.click(await view.findByRole('button', { name: 'Try again' }));
    expect(await view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });
});
