/**
 * The create of a checkout refused or not answered yet, through the real element against a fake BFF: the
 * partner's funding refuses it before payment (another plan, nothing charged, no `esim-checkout`); the first
 * create is still running elsewhere or the BFF's store is briefly down (the same create again, after
 * `Retry-After`, while the button says it is working — never "start over", which would buy twice).
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { type MountedWidget, mountWidget } from '../../testing/mount-widget';
import { passTime, passTimeUntil, runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, followOrder, openCheckout } from '../../testing/traveller';

runOnTestClock();
afterEach(cleanUpPage);

const CHECKOUTS = /^\/v1\/checkouts$/;
const IN_PROGRESS = { field: 'Idempotency-Key', reason: 'in_progress' };

async function atCheckout(bff: FakeBff): Promise<MountedWidget> {
  const widget = await mountWidget(bff);
  await openCheckout(widget);
  fillCheckout(widget);
  return widget;
}

/**
 * At checkout with a price held for a minute: the buy is not answered through the widget's tries by itself (the
 * create's outcome is not known), the price runs out meanwhile, and a new one is held at $5.20.
 */
async function unansweredUntilNewPrice(): Promise<{ bff: FakeBff; widget: MountedWidget }> {
  const bff = new FakeBff({ quoteTtlMs: 60_000, quotePrices: [450, 520] });
  const widget = await atCheckout(bff);
  for (let failure = 0; failure < 4; failure += 1) bff.failNext('POST', CHECKOUTS, 'internal', 500, {}, 2);
  fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
  await passTimeUntil(() => bff.requestsTo('POST', CHECKOUTS).length === 4, 60_000);
  await passTimeUntil(() => widget.view.queryByRole('button', { name: 'Buy for $5.20' }) !== null, 120_000);
  return { bff, widget };
}

const checkoutEvents = (widget: MountedWidget) =>
  widget.events.filter((event) => event.type === 'esim-checkout');

describe('the partner cannot fund the plan', () => {
  it.each([
    ['insufficient_balance', 402],
    ['order_limit_exceeded', 409],
    ['monthly_limit_exceeded', 409],
    ['account_not_active', 403],
  ] as const)(
    '%s before payment: cannot sell, not charged, another plan, no esim-checkout',
    async (code, status) => {
      const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' } });
      const widget = await atCheckout(bff);
      bff.failNext('POST', CHECKOUTS, code, status, { stage: 'before_payment' });
      fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
      const alert = await widget.view.findByRole('alert');
      expect(alert.textContent).toContain(
        'This store cannot sell this plan right now. You have not been charged.',
      );
      expect(alert.getAttribute('data-code')).toBe(code);
      expect(checkoutEvents(widget)).toEqual([]);
      expect(widget.events.find((event) => event.type === 'esim-error')?.detail).toEqual({
        code,
        requestId: 'req_test',
      });
      expect(sessionStorage.getItem('esim-widget:acme:checkout')).toBeNull();
      fireEvent.click(widget.view.getByRole('button', { name: 'Choose another plan' }));
      expect(await widget.view.findByRole('heading', { name: /eSIM plans for Turkey/ })).toBeTruthy();
      expect(checkoutEvents(widget)).toEqual([]);
    },
  );

  it('says so in every language the widget speaks', async () => {
    const expected = {
      ru: /не может продать этот тариф.*не списаны/,
      es: /no puede vender este plan.*No se te ha cobrado/,
      de: /kann diesen Tarif gerade nicht verkaufen.*nichts berechnet/,
      fr: /ne peut pas vendre ce forfait.*Rien ne vous a été facturé/,
    };
    const { loadMessages } = await import('../i18n/translator');
    for (const [locale, pattern] of Object.entries(expected)) {
      const table = await loadMessages(locale as keyof typeof expected);
      expect(table.errorCannotSellPlan, locale).toMatch(pattern);
    }
  });
});

describe('a create that is not answered yet', () => {
  it('409 in_progress: the same create again after Retry-After, working meanwhile, one esim-checkout', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' }, journey: ['awaiting_payment'] });
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'idempotency_conflict', 409, IN_PROGRESS, 1);
    bff.failNext('POST', CHECKOUTS, 'idempotency_conflict', 409, IN_PROGRESS, 1);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    // While the first instance finishes, the traveller sees the normal working state and no error.
    const working = widget.view.getByRole('button', { name: 'Placing your order…' });
    expect(working.getAttribute('aria-busy')).toBe('true');
    expect(widget.view.queryByRole('alert')).toBeNull();
    // Retry-After: 1 is honoured: no second attempt at once, each one a second of the widget's time after the last.
    await passTime(500);
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1);
    await passTimeUntil(() => bff.requestsTo('POST', CHECKOUTS).length === 3, 5000);
    expect(
      await widget.view.findByRole('heading', { name: 'Complete your payment' }, { timeout: 5000 }),
    ).toBeTruthy();
    const sent = bff.requestsTo('POST', CHECKOUTS);
    expect(sent).toHaveLength(3);
    const gaps = sent.slice(1).map((request, index) => request.at - (sent[index]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000);
    expect(new Set(sent.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set(['checkout-quote_1']),
    );
    expect(checkoutEvents(widget)).toHaveLength(1);
    expect(widget.view.queryByRole('button', { name: 'Start again' })).toBeNull();
    expect(widget.events.filter((event) => event.type === 'esim-error')).toEqual([]);
  }, 10_000);

  it('store_unavailable: retried by itself after Retry-After, then bought once', async () => {
    const bff = new FakeBff();
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'store_unavailable', 503, {}, 0);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    // Retry-After: 0 is no busy loop: the create is repeated at the client's shortest pause (250 ms).
    await passTimeUntil(() => bff.requestsTo('POST', CHECKOUTS).length === 2, 5000);
    const [first, second] = bff.requestsTo('POST', CHECKOUTS);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(250);
    await followOrder(bff);
    expect(
      await widget.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 }),
    ).toBeTruthy();
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(2);
    expect(checkoutEvents(widget)).toHaveLength(1);
    expect(widget.events.filter((event) => event.type === 'esim-error')).toEqual([]);
  }, 10_000);

  it('422 different_request stays an error: nothing repeated, no esim-checkout', async () => {
    const bff = new FakeBff();
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'idempotency_conflict', 422, {
      field: 'Idempotency-Key',
      reason: 'different_request',
    });
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    const alert = await widget.view.findByRole('alert');
    expect(alert.getAttribute('data-code')).toBe('idempotency_conflict');
    expect(widget.view.getByRole('button', { name: 'Start again' })).toBeTruthy();
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1);
    expect(checkoutEvents(widget)).toEqual([]);
  });

  it('after a create that may be held (500), the address stays as sent, says so, and goes again unchanged', async () => {
    const bff = new FakeBff();
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'internal', 500, {}, 2);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await widget.view.findByRole('alert');
    const email = widget.view.getByLabelText('Email') as HTMLInputElement;
    // The BFF may hold this quote's create with this address: another one under its key would be refused.
    expect(email.readOnly).toBe(true);
    expect(widget.view.getByText(/This order is being placed with this address\./)).toBeTruthy();
    await passTimeUntil(() => bff.requestsTo('POST', CHECKOUTS).length === 2, 5000);
    const [failed, repeated] = bff.requestsTo('POST', CHECKOUTS);
    expect(repeated?.body).toEqual(failed?.body);
    expect(repeated?.body).toMatchObject({ email: 'traveller@example.com' });
    await waitFor(() =>
      expect(bff.requestsTo('GET', /^\/v1\/checkouts\/chk_quote_1$/).length).toBeGreaterThan(0),
    );
  }, 10_000);

  it('after a create refused as sent (validation_failed), the address may be corrected under the same key', async () => {
    const bff = new FakeBff();
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'validation_failed', 400, { field: 'email' });
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await widget.view.findByRole('alert');
    const email = widget.view.getByLabelText('Email') as HTMLInputElement;
    expect(email.readOnly).toBe(false);
    expect(widget.view.queryByText(/This order is being placed with this address\./)).toBeNull();
    fireEvent.input(email, { target: { value: 'corrected@example.com' } });
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(2));
    const corrected = bff.requestsTo('POST', CHECKOUTS)[1];
    expect(corrected?.headers['idempotency-key']).toBe('checkout-quote_1');
    expect(corrected?.body).toMatchObject({ email: 'corrected@example.com' });
  });

  it('a price that expired while a create went unanswered: that create is settled first, never a second checkout', async () => {
    const { bff, widget } = await unansweredUntilNewPrice();
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $5.20' }));
    await waitFor(() => expect(checkoutEvents(widget)).toHaveLength(1));
    // The create that may have been made is the one sent again, as it was: one checkout, at the first price.
    const creates = bff.requestsTo('POST', CHECKOUTS);
    expect(new Set(creates.map((create) => create.headers['idempotency-key']))).toEqual(
      new Set(['checkout-quote_1']),
    );
    expect(new Set(creates.map((create) => JSON.stringify(create.body))).size).toBe(1);
    expect(checkoutEvents(widget)[0]?.detail).toMatchObject({ checkoutId: 'chk_quote_1' });
  }, 20_000);

  it('a price that expired after a create refused for good: the new price’s create goes, once', async () => {
    const { bff, widget } = await unansweredUntilNewPrice();
    // Sent again, the first create is refused for good: its price expired, nothing was made under its key.
    bff.failNext('POST', CHECKOUTS, 'quote_expired', 410);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $5.20' }));
    await waitFor(() => expect(checkoutEvents(widget)).toHaveLength(1));
    const keys = bff.requestsTo('POST', CHECKOUTS).map((create) => create.headers['idempotency-key']);
    expect(keys.slice(-2)).toEqual(['checkout-quote_1', 'checkout-quote_2']);
    expect(checkoutEvents(widget)[0]?.detail).toMatchObject({ checkoutId: 'chk_quote_2' });
    expect(widget.view.queryByRole('alert')).toBeNull();
  }, 20_000);

  it('removing the widget while it waits stops the repeats', async () => {
    const bff = new FakeBff();
    const widget = await atCheckout(bff);
    bff.failNext('POST', CHECKOUTS, 'idempotency_conflict', 409, IN_PROGRESS, 1);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    // Half the Retry-After: the widget now waits to repeat the create.
    await passTime(500);
    widget.element.remove();
    // Well past the Retry-After, and the client's whole budget for "not yet" answers: nothing was repeated.
    await passTime(30_000);
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1);
    expect(checkoutEvents(widget)).toEqual([]);
  });
});
