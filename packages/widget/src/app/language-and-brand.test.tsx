/**
 * The traveller's language (attribute, page, browser, the partner's enabled locales) and the partner's brand
 * (logo, name, support links, test badge) through the real element.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { cleanUpPage, waitForAllDestinations } from '../../testing/traveller';

afterEach(cleanUpPage);

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
    // The whole list: it is drawn in slices after the popular destinations.
    await waitForAllDestinations({ view });
    expect(view.getAllByText('Acme Travel').length).toBeGreaterThan(0);
    // A short badge on one line; the rest of the sentence for screen readers.
    expect(view.getByText('Test mode').textContent).toBe('Test mode: no real purchase');
    expect(view.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe('https://acme.test/help');
    const buttons = [...(element.shadowRoot?.querySelectorAll('button') ?? [])];
    expect(buttons.length).toBeGreaterThan(3);
    for (const button of buttons) expect(button.getAttribute('type')).toBe('button');
  });
});
