/**
 * After the sale, through the real element against a fake BFF: the manage link made after a purchase, the
 * eSIM's own view opened from the page's fragment, usage in each freshness, dates, the installation again.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { esimView, FakeBff } from '../../testing/fake-bff';
import { MANAGE_TOKEN, openMyEsim, setPageAddress } from '../../testing/manage-link-page';
import { mountWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { buyAndInstall, cleanUpPage } from '../../testing/traveller';

runOnTestClock();
afterEach(() => {
  cleanUpPage();
  setPageAddress('/');
});

const normalize = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('the manage link after a purchase', () => {
  it('is made with the client secret, shown with the page’s address and the token in the fragment, and fired as esim-manage-link', async () => {
    setPageAddress('/shop/esim?campaign=x');
    const bff = new FakeBff();
    const widget = await buyAndInstall(bff);
    const label = await widget.view.findByText('Link to your eSIM');
    fireEvent.click(widget.view.getByRole('button', { name: 'Show link' }));
    const url = `${location.origin}/shop/esim?campaign=x#esim=acme.manage_chk_quote_1_0123456789abcdef`;
    expect(label.parentElement?.querySelector('code')?.textContent).toBe(url);
    const [request] = bff.requestsTo('POST', /\/manage-link$/);
    expect(request?.headers['x-checkout-secret']).toBe('secret_chk_quote_1_0123456789abcdef');
    expect(request?.headers['idempotency-key']).toBe('manage-chk_quote_1');
    const event = widget.events.find((entry) => entry.type === 'esim-manage-link');
    expect(event?.detail).toEqual({
      url,
      esimId: 'esim_1',
      manageLinkId: 'ml_chk_quote_1',
      expiresAt: '2026-11-25T08:00:00.000Z',
    });
    expect(widget.view.getByText(/The link works until/)).toBeTruthy();
  });

  it('says so, without alarming, when the link cannot be made, and tries again on request', async () => {
    const bff = new FakeBff();
    bff.failNext('POST', /\/manage-link$/, 'internal', 500);
    const widget = await buyAndInstall(bff);
    expect(await widget.view.findByText(/could not be created. Your eSIM is not affected/)).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Try again' }));
    expect(await widget.view.findByText('Link to your eSIM')).toBeTruthy();
    expect(bff.requestsTo('POST', /\/manage-link$/)).toHaveLength(2);
  });
});

describe('my eSIM, opened from the page’s fragment', () => {
  it('reads the eSIM with the manage token, never from a cache, and shows the plan and the dates', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff);
    const [request] = bff.requestsTo('GET', /^\/v1\/my-esim\?/);
    expect(request?.headers['x-manage-token']).toBe(MANAGE_TOKEN);
    expect(request?.cache).toBe('no-store');
    expect(widget.view.getByText(/Turkey: 1 GB · 7 days/)).toBeTruthy();
    expect(widget.view.getByText('Activated')).toBeTruthy();
    expect(widget.view.getByText('Valid until')).toBeTruthy();
    // Activated already: no "activate by" deadline to worry about.
    expect(widget.view.queryByText('Install and activate by')).toBeNull();
    expect(widget.view.queryByRole('button', { name: 'Show the installation' })).toBeNull();
  });

  it('opens when a manage link is followed on the same page (hashchange)', async () => {
    const bff = new FakeBff();
    bff.addEsim(MANAGE_TOKEN, esimView());
    const widget = await mountWidget(bff);
    await widget.view.findByRole('heading', { name: 'Where are you going?' });
    setPageAddress(`/#esim=acme.${MANAGE_TOKEN}`);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    const heading = await widget.view.findByRole('heading', { name: 'My eSIM' });
    await waitFor(() => expect(widget.element.shadowRoot?.activeElement).toBe(heading));
  });

  it('takes the token out of the address bar once read, and opens the same view after a reload of the tab', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff);
    // The host page's scripts (analytics, session replay) read the address after load: no token left in it.
    expect(location.href).toBe(`${location.origin}/trips?ref=1`);
    expect(location.href).not.toContain(MANAGE_TOKEN);
    widget.element.remove();
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByRole('heading', { name: 'My eSIM' })).toBeTruthy();
    const requests = bff.requestsTo('GET', /^\/v1\/my-esim\?/);
    expect(requests.at(-1)?.headers['x-manage-token']).toBe(MANAGE_TOKEN);
  });

  it('takes out a link followed on the same page too, and forgets a refused link for the next reload', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await widget.view.findByRole('heading', { name: 'Where are you going?' });
    setPageAddress('/#tab=2&esim=acme.tampered_0123456789');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(await widget.view.findByRole('alert')).toBeTruthy();
    expect(location.hash).toBe('#tab=2');
    widget.element.remove();
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });

  it('leaves a link for another widget of the page to that widget', async () => {
    const bff = new FakeBff();
    bff.addEsim(MANAGE_TOKEN, esimView());
    setPageAddress(`/#esim=other-widget.${MANAGE_TOKEN}`);
    const widget = await mountWidget(bff);
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(bff.requestsTo('GET', /^\/v1\/my-esim/)).toHaveLength(0);
  });

  it('explains an expired, revoked or tampered link and offers a new purchase', async () => {
    const bff = new FakeBff();
    setPageAddress('/#esim=acme.tampered_0123456789');
    const widget = await mountWidget(bff);
    const alert = await widget.view.findByRole('alert');
    expect(alert.textContent).toContain('This link has expired or is no longer valid');
    expect(alert.textContent).toContain('Acme Travel');
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy another eSIM' }));
    expect(await widget.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });

  it('says that the traveller’s data was erased when the link is of an erased sale, and forgets the link', async () => {
    const bff = new FakeBff();
    bff.addEsim(MANAGE_TOKEN, esimView());
    bff.failNext('GET', /^\/v1\/my-esim/, 'erased', 410, { resource: 'esim' });
    setPageAddress(`/#esim=acme.${MANAGE_TOKEN}`);
    const widget = await mountWidget(bff);
    const alert = await widget.view.findByRole('alert');
    expect(alert.textContent).toContain('were deleted at your request');
    expect(alert.textContent).toContain('Acme Travel');
    widget.element.remove();
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
  });

  it('shows the installation again while the eSIM is not installed, with the deadline to activate', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff, {
      installed: false,
      state: 'issued',
      profileState: 'released',
      activation: {
        activatedAt: null,
        deadlineAt: '2026-12-18T08:00:00.000Z',
        serviceExpiresAt: null,
      },
      usage: { totalMb: 1024, usedMb: 0, remainingMb: 1024, status: 'fresh', observedAt: null },
    });
    expect(widget.view.getByText('Not activated yet')).toBeTruthy();
    expect(widget.view.getByText('Install and activate by')).toBeTruthy();
    expect(widget.view.getByText('This eSIM is not installed yet.')).toBeTruthy();
    fireEvent.click(widget.view.getByRole('button', { name: 'Show the installation' }));
    expect(await widget.view.findByRole('img', { name: 'QR code that installs the eSIM' })).toBeTruthy();
    expect(widget.view.getByText('ACT-CODE-123')).toBeTruthy();
    const [request] = bff.requestsTo('GET', /^\/v1\/my-esim\/installation$/);
    expect(request?.headers['x-manage-token']).toBe(MANAGE_TOKEN);
    expect(request?.cache).toBe('no-store');
  });

  it('shows the view in the traveller’s language', async () => {
    const bff = new FakeBff();
    bff.addEsim(MANAGE_TOKEN, esimView());
    setPageAddress(`/#esim=acme.${MANAGE_TOKEN}`);
    const widget = await mountWidget(bff, { locale: 'ru' });
    expect(await widget.view.findByRole('heading', { name: 'Моя eSIM' })).toBeTruthy();
    expect(normalize((await widget.view.findByText(/^Израсходовано/)).textContent)).toBe(
      'Израсходовано 256 МБ из 1 ГБ',
    );
    expect(bff.requestsTo('GET', /^\/v1\/my-esim\?locale=ru$/)).toHaveLength(1);
  });

  it('follows a change of language on the element, after-sale messages included', async () => {
    const bff = new FakeBff();
    const widget = await openMyEsim(bff);
    widget.element.setAttribute('locale', 'de');
    expect(await widget.view.findByRole('heading', { name: 'Meine eSIM' })).toBeTruthy();
    expect(await widget.view.findByRole('heading', { name: 'Aufladen' })).toBeTruthy();
    expect(widget.view.getByRole('button', { name: 'Die eSIM funktioniert nicht' })).toBeTruthy();
    await waitFor(() => expect(bff.requestsTo('GET', /^\/v1\/my-esim\?locale=de$/)).toHaveLength(1));
  });
});

describe('usage', () => {
  it('fresh: used of total, what is left, a meter, and when it was measured', async () => {
    const widget = await openMyEsim(new FakeBff());
    const usage = widget.element.shadowRoot?.querySelector('[data-usage-status]');
    expect(usage?.getAttribute('data-usage-status')).toBe('fresh');
    expect(normalize(usage?.textContent)).toMatch(/256 MB used of 1 GB.*768 MB left.*Updated .*2026/);
    const meter = usage?.querySelector('meter');
    expect(meter?.getAttribute('aria-label')).toBe('Data used');
    expect(meter?.getAttribute('value')).toBe('256');
    expect(meter?.getAttribute('max')).toBe('1024');
  });

  it('stale: the last known figures, marked as possibly behind, with their time', async () => {
    const widget = await openMyEsim(new FakeBff(), {
      usage: {
        totalMb: 3072,
        usedMb: 2560,
        remainingMb: 512,
        status: 'stale',
        observedAt: '2026-11-19T06:00:00.000Z',
      },
    });
    const usage = widget.element.shadowRoot?.querySelector('[data-usage-status]');
    expect(usage?.getAttribute('data-usage-status')).toBe('stale');
    expect(normalize(usage?.textContent)).toMatch(
      /2\.5 GB used of 3 GB.*512 MB left.*Last known figures, from .*2026.*: they may be behind\./,
    );
  });

  it('stale without a time still says the figures may be behind', async () => {
    const widget = await openMyEsim(new FakeBff(), {
      usage: { totalMb: 1024, usedMb: 100, remainingMb: null, status: 'stale', observedAt: null },
    });
    expect(widget.view.getByText('Last known figures: they may be behind.')).toBeTruthy();
    // No remaining figure from upstream: what is left is the total less what was used.
    expect(widget.view.getByText('924 MB left')).toBeTruthy();
  });

  it('unavailable: says so plainly and shows no figures (never a zero that looks real)', async () => {
    const widget = await openMyEsim(new FakeBff(), {
      usage: { totalMb: 1024, usedMb: 0, remainingMb: null, status: 'unavailable', observedAt: null },
    });
    const usage = widget.element.shadowRoot?.querySelector('[data-usage-status]');
    expect(usage?.getAttribute('data-usage-status')).toBe('unavailable');
    expect(usage?.textContent).toBe(
      'Data usage cannot be shown right now. This does not affect your connection.',
    );
    expect(widget.element.shadowRoot?.querySelector('meter')).toBeNull();
  });

  it('unlimited: what was used, without a total or a meter', async () => {
    const widget = await openMyEsim(new FakeBff(), {
      usage: {
        totalMb: null,
        usedMb: 5120,
        remainingMb: null,
        status: 'fresh',
        observedAt: '2026-11-20T10:30:00.000Z',
      },
    });
    expect(widget.view.getByText('5 GB used (unlimited plan)')).toBeTruthy();
    expect(widget.element.shadowRoot?.querySelector('meter')).toBeNull();
  });

  it('says so when the plan is no longer listed, and still shows the usage', async () => {
    const widget = await openMyEsim(new FakeBff(), { plan: null });
    expect(widget.view.getByText('The plan’s details are not available.')).toBeTruthy();
    expect(normalize(widget.view.getByText(/used of/).textContent)).toBe('256 MB used of 1 GB');
  });

  it('says when the plan has expired or its data is used up', async () => {
    const expired = await openMyEsim(new FakeBff(), { state: 'expired', serviceState: 'expired' });
    expect(expired.view.getByText('This plan has expired.')).toBeTruthy();
    cleanUpPage();
    const depleted = await openMyEsim(new FakeBff(), { state: 'depleted', serviceState: 'depleted' });
    expect(depleted.view.getByText('All the data has been used.')).toBeTruthy();
  });
});
