/**
 * The checkout tells the traveller the truth about email: who sends the installation details (the upstream in
 * `platform` delivery, the partner by name in `partner` delivery), and no email field at all when nobody does —
 * unless the partner requires the address, which is then asked for with no promise of an email.
 */
import type { WidgetPublicConfig } from '@esim-embed/shared';
import { fireEvent } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, followOrder, openCheckout } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

async function checkoutWith(config: Partial<WidgetPublicConfig>) {
  const bff = new FakeBff({ config });
  const widget = await mountWidget(bff);
  await openCheckout(widget);
  return { bff, widget };
}

describe('the email at checkout', () => {
  it('platform delivery: required, emailed by the service, with no promise in anyone else’s name', async () => {
    const { widget } = await checkoutWith({ emailSender: 'upstream', emailRequired: true });
    expect(widget.view.getByLabelText('Email').getAttribute('aria-required')).toBe('true');
    expect(widget.view.getByText('The installation details are emailed to this address.')).toBeTruthy();
  });

  it('partner delivery: the partner, by name, sends it; optional unless the partner requires it', async () => {
    const optional = await checkoutWith({ emailSender: 'partner', emailRequired: false });
    expect(
      optional.widget.view.getByText('Optional: Acme Travel sends a copy of the installation details here.'),
    ).toBeTruthy();
    expect(optional.widget.view.queryByText(/we send/i)).toBeNull();
    cleanUpPage();
    const required = await checkoutWith({ emailSender: 'partner', emailRequired: true });
    expect(
      required.widget.view.getByText('Acme Travel sends the installation details to this address.'),
    ).toBeTruthy();
  });

  it('nobody sends one but the partner requires the address: asked for, required, and nothing promised', async () => {
    const { bff, widget } = await checkoutWith({ emailSender: 'none', emailRequired: true });
    const field = widget.view.getByLabelText('Email');
    expect(field.getAttribute('aria-required')).toBe('true');
    expect(widget.view.getByText('Your email address is needed for this order.')).toBeTruthy();
    expect(widget.view.queryByText(/sends|emailed/i)).toBeNull();
    fireEvent.input(field, { target: { value: 'traveller@example.com' } });
    fireEvent.click(widget.view.getByLabelText(/I accept the terms/));
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await followOrder(bff);
    await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 });
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)[0]?.body).toMatchObject({
      email: 'traveller@example.com',
    });
  });

  it('a partner that sends none: no email field, and the checkout carries no address', async () => {
    const { bff, widget } = await checkoutWith({ emailSender: 'none', emailRequired: false });
    expect(widget.view.queryByLabelText('Email')).toBeNull();
    fireEvent.click(widget.view.getByLabelText(/I accept the terms/));
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await followOrder(bff);
    await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 });
    expect(bff.requestsTo('POST', /^\/v1\/checkouts$/)[0]?.body).not.toHaveProperty('email');
  });
});
