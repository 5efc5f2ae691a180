/**
 * The catalog steps through the real element against a fake BFF: destinations (search, popular, regions,
 * empty states) and plans (details, sorting, a country given by attribute).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { cleanUpPage, openPlans, waitForAllDestinations } from '../../testing/traveller';

afterEach(cleanUpPage);

describe('destinations', () => {
  it('lists popular destinations first, then regions and countries, from the public catalog without a session', async () => {
    const bff = new FakeBff();
    const { view, events } = await mountWidget(bff);
    expect(await view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    await waitForAllDestinations({ view });
    const headings = view.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Popular destinations', 'Regions', 'Countries']);
    expect(view.getAllByRole('button', { name: /Turkey/ })[0]?.textContent).toContain('from $4.50');
    expect(bff.requestsTo('GET', /^\/v1\/widgets\/acme\/start$/)).toHaveLength(1);
    const [read] = bff.requestsTo('GET', /\/destinations$/);
    expect(read?.path).toBe('/v1/catalog/acme/7-0123456789abcdef/en/destinations');
    expect(read?.headers.authorization).toBeUndefined();
    expect(bff.requestsTo('POST', /^\/v1\/sessions$/)).toHaveLength(0);
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
    const { destinations } = await import('../../testing/fake-bff');
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
    const bff = new FakeBff();
    const { view } = await mountWidget(bff, { country: 'tr' });
    expect(await view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
    // The plans were read once — started with the widget, taken by the step — and the search was not read.
    expect(bff.requestsTo('GET', /\/plans\/TR$/)).toHaveLength(1);
    expect(bff.requestsTo('GET', /\/destinations$/)).toHaveLength(0);
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
