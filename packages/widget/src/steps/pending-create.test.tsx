/**
 * A create whose outcome is not known survives a reload, through the real element against a fake BFF: it is kept
 * in `sessionStorage` before it is sent; a new widget in the same tab (a reload) opens on that purchase and settles
 * it first, unchanged (key, body, session token, manage token); only an answer for good frees the form; it is
 * forgotten once settled; one whose session ended is still settled within the BFF's grace (the ended token reads
 * back the checkout its create made); one past the grace is forgotten, and the traveller told before buying again.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { MANAGE_TOKEN, openMyEsim, setPageAddress } from '../../testing/manage-link-page';
import { type MountedWidget, mountWidget } from '../../testing/mount-widget';
import { passTime, passTimeUntil, runOnTestClock } from '../../testing/test-clock';
import { cleanUpPage, fillCheckout, followOrder, openCheckout } from '../../testing/traveller';
import { pendingCreateKey } from '../flow/flow-steps';
import { forgetCreate, keepCreate, keptCreate, type PendingCreate } from './pending-create';

runOnTestClock();
afterEach(() => {
  cleanUpPage();
  setPageAddress('/');
});

const CHECKOUTS = /^\/v1\/checkouts$/;
const QUOTES = /^\/v1\/quotes$/;
const UNCONFIRMED_NOTICE =
  'An order placed earlier on this page could not be confirmed and may have gone through. Ask Acme Travel before buying again.';

/** The create kept in this tab for the widget `acme` on the fake BFF, on the page at `path`, as stored. */
function keptEntry(path = '/'): Record<string, unknown> | null {
  const raw = sessionStorage.getItem(`esim-widget:acme:create https://bff.test ${path}`);
  return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
}

/** Every key this tab's storage holds. */
function storedKeys(): string[] {
  return Array.from({ length: sessionStorage.length }, (_, index) => sessionStorage.key(index) ?? '');
}

const checkoutEvents = (widget: MountedWidget) =>
  widget.events.filter((event) => event.type === 'esim-checkout');

/** At Turkey's 1 GB checkout, buys; the create gets no answer, and the page reloads (a new widget in the tab). */
async function reloadWhileCreateHangs(bff: FakeBff): Promise<MountedWidget> {
  const first = await mountWidget(bff);
  await openCheckout(first);
  fillCheckout(first);
  bff.hanging.push(CHECKOUTS);
  fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
  await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
  // The reload: the page's widget goes (its requests aborted), a new one comes, in the same tab.
  first.element.remove();
  bff.hanging.length = 0;
  return mountWidget(bff);
}

describe('a create kept over a reload', () => {
  it('is kept before it is sent: session, key, body, price and plan', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    // What the tab holds at the moment the create leaves.
    const heldWhenSent: (Record<string, unknown> | null)[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).endsWith('/v1/checkouts')) heldWhenSent.push(keptEntry());
      return bff.fetch(input, init);
    });
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(heldWhenSent).toHaveLength(1));
    const [sent] = bff.requestsTo('POST', CHECKOUTS);
    expect(heldWhenSent[0]).toMatchObject({
      token: 'token-1',
      tokenExpiresAt: expect.any(String),
      key: 'checkout-quote_1',
      request: sent?.body,
      quote: { id: 'quote_1', price: { amountMinor: 450 } },
      plan: { offerId: 'off_small' },
      destination: { code: 'TR' },
    });
    expect(sent?.headers.authorization).toBe('Bearer token-1');
    expect(sent?.headers['idempotency-key']).toBe('checkout-quote_1');
  });

  it('is settled first after a reload, unchanged, and its checkout shown; forgotten once settled', async () => {
    const bff = new FakeBff();
    const reloaded = await reloadWhileCreateHangs(bff);
    // The reloaded widget settles that purchase and goes on with the checkout it made.
    await followOrder(bff);
    expect(
      await reloaded.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 }),
    ).toBeTruthy();
    const [first, again, ...more] = bff.requestsTo('POST', CHECKOUTS);
    expect(more).toEqual([]);
    expect(again?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(again?.headers.authorization).toBe(first?.headers.authorization);
    expect(again?.body).toEqual(first?.body);
    // No price asked again: the create settles under the session it was sent in (the status reads that follow
    // open the reloaded widget's own).
    expect(bff.requestsTo('POST', QUOTES)).toHaveLength(1);
    expect(checkoutEvents(reloaded).map((event) => event.detail)).toMatchObject([
      { checkoutId: 'chk_quote_1', resumed: false },
    ]);
    expect(keptEntry()).toBeNull();
  }, 20_000);

  it('in partner_confirm, the page hears of the checkout it made as of a fresh one, and its payment is awaited', async () => {
    const bff = new FakeBff({ config: { checkoutMode: 'partner_confirm' }, journey: ['awaiting_payment'] });
    const reloaded = await reloadWhileCreateHangs(bff);
    expect(
      await reloaded.view.findByRole('heading', { name: 'Complete your payment' }, { timeout: 8000 }),
    ).toBeTruthy();
    expect(checkoutEvents(reloaded).map((event) => event.detail)).toMatchObject([
      { checkoutId: 'chk_quote_1', mode: 'partner_confirm', resumed: false, attempt: 1 },
    ]);
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(2);
    expect(keptEntry()).toBeNull();
  });

  it.each([
    ['internal', 500],
    ['upstream_unavailable', 503],
    ['rate_limited', 429],
    // A 2xx the widget cannot read: the checkout may exist.
    ['internal', 200],
  ] as const)(
    'a %s (%i) answer keeps it, the address as sent; a refusal for good frees the form',
    async (code, status) => {
      const bff = new FakeBff();
      const first = await mountWidget(bff);
      await openCheckout(first);
      fillCheckout(first);
      bff.hanging.push(CHECKOUTS);
      fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
      await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
      first.element.remove();
      bff.hanging.length = 0;
      bff.failNext('POST', CHECKOUTS, code, status, {}, 30);
      const reloaded = await mountWidget(bff);
      const alert = await reloaded.view.findByRole('alert', {}, { timeout: 8000 });
      expect(alert.getAttribute('data-code')).toBe(status === 200 ? 'invalid_response' : code);
      expect(keptEntry()).toMatchObject({ key: 'checkout-quote_1' });
      const email = reloaded.view.getByLabelText('Email') as HTMLInputElement;
      expect(email.value).toBe('traveller@example.com');
      expect(email.readOnly).toBe(true);

      // Sent again (by the traveller here), the create is refused for good: nothing is held under its key.
      bff.failNext('POST', CHECKOUTS, 'quote_expired', 410);
      fireEvent.click(reloaded.view.getByRole('button', { name: 'Buy for $4.50' }));
      await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(3));
      await waitFor(() => expect(keptEntry()).toBeNull());
      // A new price of the reloaded widget's own session; the form is free, and buys once.
      await waitFor(() => expect(bff.requestsTo('POST', QUOTES)).toHaveLength(2));
      await waitFor(() =>
        expect((reloaded.view.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(false),
      );
      fireEvent.click(await reloaded.view.findByRole('button', { name: 'Buy for $4.50' }));
      await waitFor(() => expect(checkoutEvents(reloaded)).toHaveLength(1));
      const last = bff.requestsTo('POST', CHECKOUTS).at(-1);
      expect(last?.headers['idempotency-key']).toBe('checkout-quote_2');
      expect(last?.headers.authorization).toBe('Bearer token-2');
      expect(checkoutEvents(reloaded)[0]?.detail).toMatchObject({ checkoutId: 'chk_quote_2' });
    },
    20_000,
  );

  it('going back and buying another plan meanwhile settles the kept create first: one checkout', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', CHECKOUTS, 'internal', 500, {}, 30);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    await widget.view.findByRole('alert');
    fireEvent.click(widget.view.getByRole('button', { name: /Back/ }));
    fireEvent.click(await widget.view.findByRole('button', { name: /10 GB, 30 days/ }));
    await widget.view.findByRole('timer');
    // The address of the create kept stays as it was sent, and says so.
    expect((widget.view.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $19.00' }));
    await waitFor(() => expect(checkoutEvents(widget)).toHaveLength(1));
    const creates = bff.requestsTo('POST', CHECKOUTS);
    expect(creates.map((create) => create.headers['idempotency-key'])).toEqual([
      'checkout-quote_1',
      'checkout-quote_1',
    ]);
    expect(checkoutEvents(widget)[0]?.detail).toMatchObject({ checkoutId: 'chk_quote_1' });
  }, 20_000);
});

describe('a kept create whose session ended', () => {
  it('is settled after a reload within the grace: the checkout its create made is shown, never a second one', async () => {
    const bff = new FakeBff();
    const first = await mountWidget(bff);
    await openCheckout(first);
    fillCheckout(first);
    // The BFF makes the checkout, but its answer is lost to the reload.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = await bff.fetch(input, init);
      if (init?.method !== 'POST' || !String(input).endsWith('/v1/checkouts')) return answer;
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    });
    fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    const { tokenExpiresAt, replayUntil } = keptEntry() as { tokenExpiresAt: string; replayUntil: string };
    expect(Date.parse(replayUntil) - Date.parse(tokenExpiresAt)).toBe(86_400_000);
    first.element.remove();
    // Past the session's 15 minutes (the BFF has ended it), well within the day its create can be read back.
    await passTime(901_000);
    bff.endSessions();
    const reloaded = await mountWidget(bff);
    await followOrder(bff);
    expect(
      await reloaded.view.findByRole('heading', { name: 'Install your eSIM' }, { timeout: 8000 }),
    ).toBeTruthy();
    const [sent, again, ...more] = bff.requestsTo('POST', CHECKOUTS);
    expect(more).toEqual([]);
    expect(again?.headers).toMatchObject({
      authorization: 'Bearer token-1',
      'idempotency-key': sent?.headers['idempotency-key'],
    });
    expect(again?.body).toEqual(sent?.body);
    expect(checkoutEvents(reloaded).map((event) => event.detail)).toMatchObject([
      { checkoutId: 'chk_quote_1', resumed: false },
    ]);
    expect(reloaded.view.queryByText(UNCONFIRMED_NOTICE)).toBeNull();
    expect(keptEntry()).toBeNull();
  }, 20_000);

  it('is forgotten at a reload past the grace (no token, no address left), and the traveller told before buying again', async () => {
    const bff = new FakeBff({ replayGraceMs: 60_000 });
    const first = await mountWidget(bff);
    await openCheckout(first);
    fillCheckout(first);
    bff.hanging.push(CHECKOUTS);
    fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    first.element.remove();
    bff.hanging.length = 0;
    // Past the session's 15 minutes and the minute after it when its create could still be read back.
    await passTime(961_000);
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByRole('heading', { name: 'Where are you going?' })).toBeTruthy();
    expect(keptEntry()).toEqual({ unconfirmed: true });
    const kept = storedKeys().map((key) => sessionStorage.getItem(key) ?? '');
    expect(kept.join(' ')).not.toMatch(/token-1|traveller@example\.com/);
    expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1);

    await openCheckout(reloaded);
    expect(reloaded.view.getByText(UNCONFIRMED_NOTICE)).toBeTruthy();
    fillCheckout(reloaded);
    fireEvent.click(reloaded.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(checkoutEvents(reloaded)).toHaveLength(1));
    expect(bff.requestsTo('POST', CHECKOUTS).at(-1)?.headers['idempotency-key']).toBe('checkout-quote_2');
    await waitFor(() => expect(keptEntry()).toBeNull());
  }, 20_000);

  it('refused by the BFF as expired while settling: forgotten, told, and no other create in the same press', async () => {
    const bff = new FakeBff();
    const first = await mountWidget(bff);
    await openCheckout(first);
    fillCheckout(first);
    bff.hanging.push(CHECKOUTS);
    fireEvent.click(first.view.getByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    first.element.remove();
    bff.hanging.length = 0;
    // The BFF has ended the session before the token said (its clock, a new signing key).
    bff.endSessions();
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByText(UNCONFIRMED_NOTICE, {}, { timeout: 8000 })).toBeTruthy();
    expect(keptEntry()).toEqual({ unconfirmed: true });
    const creates = bff.requestsTo('POST', CHECKOUTS);
    expect(creates).toHaveLength(2);
    expect(creates[1]?.headers.authorization).toBe('Bearer token-1');
    // A price of a session of its own; the next press buys, once.
    await passTimeUntil(() => bff.requestsTo('POST', QUOTES).length === 2, 5000);
    fireEvent.click(await reloaded.view.findByRole('button', { name: 'Buy for $4.50' }));
    await waitFor(() => expect(checkoutEvents(reloaded)).toHaveLength(1));
    expect(bff.requestsTo('POST', CHECKOUTS).at(-1)?.headers).toMatchObject({
      'idempotency-key': 'checkout-quote_2',
      authorization: 'Bearer token-2',
    });
  }, 20_000);
});

describe('a top-up kept over a reload', () => {
  it('is settled first with its manage token, and ends on the eSIM’s view', async () => {
    const bff = new FakeBff({ journey: ['provisioning', 'ready'] });
    const first = await openMyEsim(bff);
    fireEvent.click(first.view.getByRole('button', { name: 'Add 1 GB · 30 days, $3.00' }));
    await first.view.findByRole('heading', { name: 'Top up' });
    await first.view.findByRole('timer');
    fillCheckout(first);
    bff.hanging.push(CHECKOUTS);
    fireEvent.click(first.view.getByRole('button', { name: 'Buy for $3.00' }));
    await waitFor(() => expect(bff.requestsTo('POST', CHECKOUTS)).toHaveLength(1));
    expect(keptEntry('/trips')).toMatchObject({ topUp: { esimId: 'esim_1', manageToken: MANAGE_TOKEN } });
    first.element.remove();
    bff.hanging.length = 0;

    // The reload: the manage token of this tab would open the eSIM's view, but its top-up is settled first.
    const reloaded = await mountWidget(bff);
    expect(await reloaded.view.findByRole('heading', { name: 'Top up' })).toBeTruthy();
    await followOrder(bff);
    expect(await reloaded.view.findByText(/Your top-up is on the eSIM/, {}, { timeout: 8000 })).toBeTruthy();
    const [sent, again] = bff.requestsTo('POST', CHECKOUTS);
    expect(again?.headers).toMatchObject({
      'idempotency-key': sent?.headers['idempotency-key'],
      authorization: sent?.headers.authorization,
      'x-manage-token': MANAGE_TOKEN,
    });
    expect(again?.body).toEqual(sent?.body);
    expect(bff.toppedUp).toEqual(new Set(['chk_quote_1']));
    expect(checkoutEvents(reloaded).map((event) => event.detail)).toMatchObject([
      { checkoutId: 'chk_quote_1', kind: 'top_up' },
    ]);
    expect(keptEntry('/trips')).toBeNull();
  }, 20_000);
});

describe('where a create is kept', () => {
  const create = {
    token: 'token-1',
    tokenExpiresAt: new Date(Date.now() + 600_000).toISOString(),
    key: 'checkout-quote_1',
    request: { quoteId: 'quote_1', locale: 'en', termsAccepted: true },
    quote: { id: 'quote_1' },
    plan: { offerId: 'off_small' },
    destination: { code: 'TR', name: 'Turkey', flag: '' },
  } as unknown as PendingCreate;

  it('per widget, BFF and page: another BFF or page of the origin never sees it', () => {
    setPageAddress('/esim');
    const here = pendingCreateKey('acme', 'https://bff.test');
    keepCreate(here, create);
    expect(keptCreate(here)).toEqual(create);
    expect(keptCreate(pendingCreateKey('acme', 'https://other-bff.test'))).toBeNull();
    expect(keptCreate(pendingCreateKey('other', 'https://bff.test'))).toBeNull();
    setPageAddress('/other-page');
    expect(keptCreate(pendingCreateKey('acme', 'https://bff.test'))).toBeNull();
  });

  it('until its session’s grace ends (or, kept by an earlier release, until its token expires)', () => {
    const place = pendingCreateKey('acme', 'https://bff.test');
    const ended = new Date(Date.now() - 1_000).toISOString();
    const withGrace = {
      ...create,
      tokenExpiresAt: ended,
      replayUntil: new Date(Date.now() + 60_000).toISOString(),
    };
    keepCreate(place, withGrace);
    expect(keptCreate(place)).toEqual(withGrace);
    keepCreate(place, { ...withGrace, replayUntil: ended });
    expect(keptCreate(place)).toBe('unconfirmed');
    keepCreate(place, { ...create, tokenExpiresAt: ended });
    expect(keptCreate(place)).toBe('unconfirmed');
  });

  it('one it cannot read counts as unconfirmed, and is forgotten', () => {
    const place = pendingCreateKey('acme', 'https://bff.test');
    sessionStorage.setItem(place, '{"token":"token-1"');
    expect(keptCreate(place)).toBe('unconfirmed');
    expect(sessionStorage.getItem(place)).toBe('{"unconfirmed":true}');
  });

  it('in a tab whose storage is blocked, kept for the page’s life', () => {
    const place = pendingCreateKey('acme', 'https://bff.test');
    // As where the page's storage is out of reach (a sandboxed frame, storage turned off).
    vi.stubGlobal('sessionStorage', undefined);
    try {
      keepCreate(place, create);
      expect(keptCreate(place)).toEqual(create);
      forgetCreate(place, false);
      expect(keptCreate(place)).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
