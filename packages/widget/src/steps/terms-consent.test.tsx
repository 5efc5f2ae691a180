/**
 * Consent to the partner's terms in both of the partner's modes, through the real element against a fake BFF:
 * `checkbox` (tick, then buy) and `button` (the buy button's own words, linked and tied to the button by
 * `aria-describedby`, no checkbox; one press creates the checkout with `termsAccepted: true`).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { cleanUpPage, openCheckout } from '../../testing/traveller';

afterEach(cleanUpPage);

/** The body of the one checkout created, once it is. */
async function createdCheckout(bff: FakeBff): Promise<unknown> {
  await waitFor(() => expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(1));
  return bff.requestsTo('POST', /^\/v1\/checkouts$/)[0]?.body;
}

describe('consent in the buy button', () => {
  it('says the terms in the button’s words, linked, and one press buys with termsAccepted', async () => {
    const bff = new FakeBff({ config: { consent: 'button', emailRequired: false } });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    const { view } = widget;
    expect(view.queryByRole('checkbox')).toBeNull();
    const buy = view.getByRole('button', { name: 'Buy for $4.50' });
    const sentenceId = buy.getAttribute('aria-describedby');
    expect(sentenceId).toBeTruthy();
    const sentence = widget.element.shadowRoot?.getElementById(sentenceId ?? '');
    expect(sentence?.textContent).toBe('By buying you accept the terms and privacy policy of Acme Travel.');
    expect(view.getByRole('link', { name: 'terms' }).getAttribute('href')).toBe('https://acme.test/terms');
    expect(view.getByRole('link', { name: 'privacy policy' }).getAttribute('href')).toBe(
      'https://acme.test/privacy',
    );
    fireEvent.click(buy);
    expect(await createdCheckout(bff)).toEqual({ quoteId: 'quote_1', locale: 'en', termsAccepted: true });
  });

  it('names a page the partner does not have without a link', async () => {
    const bff = new FakeBff({ config: { consent: 'button' } });
    bff.config.brand.privacyUrl = null;
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    expect(widget.view.getByRole('link', { name: 'terms' })).toBeTruthy();
    expect(widget.view.queryByRole('link', { name: 'privacy policy' })).toBeNull();
    expect(widget.view.getByText(/By buying you accept the/).textContent).toContain('privacy policy');
  });

  it('in checkbox mode asks for the tick first, and the button describes nothing', async () => {
    const bff = new FakeBff({ config: { consent: 'checkbox', emailRequired: false } });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    const { view } = widget;
    const buy = view.getByRole('button', { name: 'Buy for $4.50' });
    expect(buy.getAttribute('aria-describedby')).toBeNull();
    expect(view.queryByText(/By buying you accept/)).toBeNull();
    fireEvent.click(buy);
    expect(view.getByText('Accept the terms to continue.')).toBeTruthy();
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)).toHaveLength(0);
    fireEvent.click(view.getByRole('checkbox', { name: /I accept the terms/ }));
    fireEvent.click(buy);
    expect(await createdCheckout(bff)).toMatchObject({ termsAccepted: true });
  });
});
