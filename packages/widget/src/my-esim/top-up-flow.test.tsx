/**
 * Top-up and help through the real element against a fake BFF: every top-up status's message, buying a
 * top-up through the quote → checkout → progress steps with the manage token (kind `top_up`, one checkout
 * however often buy is pressed, partner confirmation), and the help panel's support contacts and `esim-help`.
 */
import type { TopUpStatus } from '@esim-embed/shared';
import { fireEvent } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { esimView, FakeBff, topUpOffer } from '../../testing/fake-bff';
import { MANAGE_TOKEN, openMyEsim, setPageAddress } from '../../testing/manage-link-page';
import { mountWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { buyAndInstall, cleanUpPage, fillCheckout, followOrder } from '../../testing/traveller';
import { rememberCheckout } from '../flow/flow-steps';

runOnTestClock();
afterEach(() => {
  cleanUpPage();
  setPageAddress('/');
});

const STATUS_MESSAGES: [Exclude<TopUpStatus, 'available'>, boolean, string][] = [
  ['not_supported', false, 'This eSIM cannot be topped up. To stay connected, buy a new eSIM.'],
  ['not_enabled', false, 'Acme Travel does not offer top-ups for this eSIM.'],
  [
    'compatibility_unverified',
    true,
    'We cannot yet confirm that a top-up works with this eSIM, so none is offered. Please check again later.',
  ],
  [
    'temporarily_unavailable',
    true,
    'Top-ups are temporarily unavailable. Please check again in a few minutes.',
  ],
  [
    'profile_ineligible',
    false,
    'This eSIM cannot take a top-up in its current state (for example, expired or not installed).',
  ],
];

describe('top-up status', () => {
  it.each(STATUS_MESSAGES)('%s has its own honest message', async (status, retryable, message) => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff, { topUp: { status, retryable, offers: [] } });
    const section = widget.element.shadowRoot?.querySelector('[data-top-up-status]');
    expect(section?.getAttribute('data-top-up-status')).toBe(status);
    expect(widget.view.getByText(message)).toBeTruthy();
    expect(widget.view.queryByRole('button', { name: /^Add / })).toBeNull();
    const checkAgain = widget.view.queryByRole('button', { name: 'Check again' });
    expect(Boolean(checkAgain)).toBe(retryable);
    if (checkAgain) {
      // Asked again, the answer may have changed.
      bff.addEsim(MANAGE_TOKEN, esimView());
      fireEvent.click(checkAgain);
      expect(await widget.view.findByRole('button', { name: /^Add 1 GB · 30 days, \$3\.00$/ })).toBeTruthy();
      expect(bff.requestsTo('GET', /^\/v1\/my-esim\?/)).toHaveLength(2);
    }
  });

  it('says so when top-up is available but nothing is offered', async () => {
    const widget = await openMyEsim(new FakeBff(), {
      topUp: { status: 'available', retryable: false, offers: [] },
    });
    expect(widget.view.getByText('No top-ups are offered for this eSIM right now.')).toBeTruthy();
  });

  it('lists the offers at their retail prices', async () => {
    const widget = await openMyEsim(new FakeBff());
    expect(widget.view.getByText('Add data to this eSIM:')).toBeTruthy();
    const offer = widget.view.getByRole('button', { name: 'Add 1 GB · 30 days, $3.00' });
    expect(offer.closest('li')?.textContent).toContain('$3.00');
  });
});

/** Opens the eSIM's view, chooses the 1 GB top-up, fills in the checkout and presses buy. */
async function buyTopUp(bff: FakeBff) {
  const widget = await openMyEsim(bff);
  fireEvent.click(widget.view.getByRole('button', { name: 'Add 1 GB · 30 days, $3.00' }));
  await widget.view.findByRole('heading', { name: 'Top up' });
  await widget.view.findByRole('timer');
  fillCheckout(widget);
  const buy = widget.view.getByRole('button', { name: 'Buy for $3.00' });
  fireEvent.click(buy);
  fireEvent.click(buy);
  return widget;
}

describe('buying a top-up', () => {
  it('goes through quote, checkout and progress with the manage token, then back to the eSIM', async () => {
    const bff = new FakeBff({ journey: ['placing', 'provisioning', 'ready'] });
    const widget = await buyTopUp(bff);
    expect(await widget.view.findByText('Adding the data to your eSIM', {}, { timeout: 8000 })).toBeTruthy();
    await followOrder(bff);
    expect(await widget.view.findByText(/Your top-up is on the eSIM/, {}, { timeout: 8000 })).toBeTruthy();
    expect(widget.view.getByRole('heading', { name: 'My eSIM' })).toBeTruthy();

    const [quote] = bff.requestsTo('POST', /^\/v1\/quotes$/);
    expect(quote?.body).toEqual({ offerId: topUpOffer.offerId, locale: 'en', esimId: 'esim_1' });
    expect(quote?.headers['x-manage-token']).toBe(MANAGE_TOKEN);
    const checkouts = bff.requestsTo('POST', /^\/v1\/checkouts$/);
    // Two presses, one checkout: every request carries the quote's key and the fake answers one checkout.
    expect(new Set(checkouts.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set(['checkout-quote_1']),
    );
    expect(checkouts[0]?.headers['x-manage-token']).toBe(MANAGE_TOKEN);
    expect(bff.toppedUp).toEqual(new Set(['chk_quote_1']));
    // A top-up has no installation to fetch.
    expect(bff.requestsTo('GET', /\/installation$/)).toHaveLength(0);

    const checkoutEvent = widget.events.find((event) => event.type === 'esim-checkout');
    expect(checkoutEvent?.detail).toMatchObject({
      kind: 'top_up',
      esimId: 'esim_1',
      amount: { amountMinor: 300 },
    });
    const purchase = widget.events.find((event) => event.type === 'esim-purchase');
    expect(purchase?.detail).toEqual({
      checkoutId: 'chk_quote_1',
      kind: 'top_up',
      esimId: 'esim_1',
      amount: { amountMinor: 300, currency: 'USD' },
    });
    // The eSIM's view is read again after the top-up.
    expect(bff.requestsTo('GET', /^\/v1\/my-esim\?/).length).toBeGreaterThanOrEqual(2);
  });

  it('asks no device check: the eSIM the data goes to is already on a device', async () => {
    // Its chunk loaded beforehand: a check shown on the top-up's checkout would be there within the wait below.
    await import('../device-check/device-check');
    const widget = await openMyEsim(new FakeBff());
    fireEvent.click(widget.view.getByRole('button', { name: 'Add 1 GB · 30 days, $3.00' }));
    await widget.view.findByRole('heading', { name: 'Top up' });
    await widget.view.findByRole('button', { name: 'Buy for $3.00' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(widget.element.shadowRoot?.querySelector('[part~="device-check"]')).toBeNull();
    expect(widget.events.some((event) => event.type === 'esim-device-check')).toBe(false);
  });

  it('in partner_confirm mode waits for the partner, as a first purchase does', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' }, journey: ['awaiting_payment'] });
    const widget = await buyTopUp(bff);
    expect(await widget.view.findByRole('heading', { name: 'Complete your payment' })).toBeTruthy();
    const checkoutEvent = widget.events.find((event) => event.type === 'esim-checkout');
    expect(checkoutEvent?.detail).toMatchObject({ kind: 'top_up', mode: 'partner_confirm' });
  });

  it('says that a failed top-up was not charged, and leads back to the eSIM', async () => {
    const bff = new FakeBff({ journey: ['placing', 'failed'] });
    const widget = await buyTopUp(bff);
    await followOrder(bff);
    expect(
      await widget.view.findByText(
        'We could not add the top-up. You have not been charged for it.',
        {},
        { timeout: 8000 },
      ),
    ).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Back to my eSIM' }));
    expect(await widget.view.findByRole('heading', { name: 'My eSIM' })).toBeTruthy();
  });

  it('a top-up the eSIM can no longer take is refused with a way to the partner', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff);
    bff.failNext('POST', /^\/v1\/quotes$/, 'action_not_available', 409);
    fireEvent.click(widget.view.getByRole('button', { name: 'Add 1 GB · 30 days, $3.00' }));
    const alert = await widget.view.findByRole('alert');
    expect(alert.textContent).toContain('You have not been charged');
    fireEvent.click(widget.view.getByRole('button', { name: /Back/ }));
    expect(await widget.view.findByRole('heading', { name: 'My eSIM' })).toBeTruthy();
  });

  it('resumes after a reload from the remembered top-up, and ends on the eSIM’s view', async () => {
    const bff = new FakeBff({ journey: ['provisioning', 'ready'] });
    // Start a top-up in a first widget, then "reload": a new widget in the same tab.
    const first = await buyTopUp(bff);
    await first.view.findByRole('heading', { name: 'Preparing your eSIM' });
    cleanUpPage();
    const handle = {
      id: 'chk_quote_1',
      clientSecret: 'secret_chk_quote_1_0123456789abcdef',
      topUp: { esimId: 'esim_1', manageToken: MANAGE_TOKEN },
    };
    rememberCheckout('acme', handle);
    const reloaded = await mountWidget(bff);
    // The journey goes on where the first widget left it: its reads and the reloaded one's make it ready.
    await followOrder(bff);
    expect(await reloaded.view.findByText(/Your top-up is on the eSIM/, {}, { timeout: 8000 })).toBeTruthy();
  });
});

describe('help', () => {
  it('from my eSIM: advice, the partner’s support links, and esim-help with the actions available', async () => {
    const widget = await openMyEsim(new FakeBff());
    const button = widget.view.getByRole('button', { name: 'The eSIM is not working' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(
      await widget.view.findByText(/Turn on the eSIM and data roaming.*Acme Travel can help/),
    ).toBeTruthy();
    expect(widget.view.getByRole('link', { name: 'Contact Acme Travel' }).getAttribute('href')).toBe(
      'https://acme.test/help',
    );
    expect(widget.view.getByRole('link', { name: 'Email help@acme.test' }).getAttribute('href')).toBe(
      'mailto:help@acme.test',
    );
    const help = widget.events.find((event) => event.type === 'esim-help');
    // The BFF's rule (shared): a top-up is not a help request; the cancellation has no channel (access
    // none) though `available`; the refund goes through the service's review (`manual_review`, `assisted`)
    // and the partner's server can request it; the reissue is unavailable.
    expect(help?.detail).toEqual({
      esimId: 'esim_1',
      checkoutId: null,
      reason: 'service_defective',
      availableActions: ['refund'],
    });
    expect(help?.bubbles && help.composed).toBe(true);
  });

  it('never asks the BFF for a refund or any other action from the browser', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff);
    fireEvent.click(widget.view.getByRole('button', { name: 'The installation failed' }));
    await widget.view.findByText(/Check that the phone is online/);
    expect(bff.requests.filter((request) => request.method === 'POST')).toEqual([
      expect.objectContaining({ path: '/v1/sessions' }),
    ]);
  });

  it('from the install step: installation failed, with the checkout and the eSIM once its link exists', async () => {
    const widget = await buyAndInstall(new FakeBff());
    await widget.view.findByText('Link to your eSIM');
    fireEvent.click(widget.view.getByRole('button', { name: 'The installation failed' }));
    expect(await widget.view.findByText(/Check that the phone is online and supports eSIM/)).toBeTruthy();
    const help = widget.events.find((event) => event.type === 'esim-help');
    expect(help?.detail).toEqual({
      esimId: 'esim_1',
      checkoutId: 'chk_quote_1',
      reason: 'installation_failed',
      availableActions: [],
    });
  });

  it('shows only what the brand has: no support URL, the email alone', async () => {
    const bff = new FakeBff({
      config: {
        brand: {
          displayName: 'Solo',
          logoUrl: null,
          primaryColor: '#123456',
          supportEmail: 'solo@example.com',
          supportUrl: null,
          termsUrl: null,
          privacyUrl: null,
        },
      },
    });
    const widget = await openMyEsim(bff);
    fireEvent.click(widget.view.getByRole('button', { name: 'The eSIM is not working' }));
    await widget.view.findByText(/Solo can help/);
    expect(widget.view.queryByRole('link', { name: 'Contact Solo' })).toBeNull();
    expect(widget.view.getByRole('link', { name: 'Email solo@example.com' })).toBeTruthy();
  });
});
