/**
 * The notice tries again by itself after a passing failure: after the BFF's `Retry-After` (or 5, 10, 20 s), at most
 * three times in a row, saying when, its button staying; never for an error the traveller must decide on.
 */
import { retryAfterSecondsOf } from '@esim-embed/shared';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBff } from '../../testing/fake-bff';
import { mountWidget } from '../../testing/mount-widget';
import { passTime, passTimeUntil, runOnTestClock } from '../../testing/test-clock';
import {
  buyAndInstall,
  cleanUpPage,
  fillCheckout,
  openCheckout,
  waitForAllDestinations,
} from '../../testing/traveller';
import { testWidgetContext } from '../../testing/widget-context';
import { retryWorth, WidgetApiError, type WidgetErrorCode } from '../api/api-error';
import { ERROR_HANDLING } from '../errors/error-recovery';
import { WidgetContext } from '../flow/widget-context';
import { createTranslator, loadMessages, WIDGET_LOCALES } from '../i18n/translator';
import { ErrorNotice } from './error-notice';
import { PASSING_RETRIES, passingRetryDelayMs } from './retry-by-itself';

runOnTestClock();
afterEach(cleanUpPage);

const destinationReads = (bff: FakeBff) => bff.requestsTo('GET', /\/destinations$/);
/** The gaps between the times of `requests`, in ms of the widget's clock. */
const gaps = (requests: readonly { at: number }[]) =>
  requests.slice(1).map((request, index) => request.at - (requests[index]?.at ?? 0));

describe('a passing failure, tried again by itself', () => {
  it('waits the BFF’s Retry-After (7 s) twice, says so, and shows the destinations without a tap', async () => {
    const bff = new FakeBff();
    for (let i = 0; i < 2; i++) bff.failNext('GET', /\/destinations$/, 'upstream_unavailable', 503, {}, 7);
    const widget = await mountWidget(bff);
    const notice = await widget.view.findByRole('alert');
    expect(notice.textContent).toContain('The store is temporarily unavailable.');
    expect(notice.textContent).toContain('We will try again in 7 seconds.');
    // The traveller may go at once: the button stays while the notice waits.
    expect(widget.view.getByRole('button', { name: 'Try again' })).toBeTruthy();
    await passTime(6000);
    expect(destinationReads(bff)).toHaveLength(1);
    await passTimeUntil(() => destinationReads(bff).length === 3, 20_000);
    await waitForAllDestinations(widget);
    expect(widget.view.queryByRole('alert')).toBeNull();
    const [first, second] = gaps(destinationReads(bff));
    expect(first).toBeGreaterThanOrEqual(7000);
    expect(first).toBeLessThan(7500);
    expect(second).toBeGreaterThanOrEqual(7000);
    expect(second).toBeLessThan(7500);
  });

  it('starts the widget by itself after the start’s Retry-After, and quotes by itself after a failed quote', async () => {
    const bff = new FakeBff();
    bff.failNext('GET', /^\/v1\/widgets\/acme\/start$/, 'upstream_unavailable', 503, {}, 3);
    const widget = await mountWidget(bff);
    expect((await widget.view.findByRole('alert')).textContent).toContain('We will try again in 3 seconds.');
    await passTimeUntil(() => bff.requestsTo('GET', /\/start$/).length === 2, 5000);
    await waitForAllDestinations(widget);
    bff.failNext('POST', /^\/v1\/quotes$/, 'rate_limited', 429, {}, 4);
    const quotes = () => bff.requestsTo('POST', /^\/v1\/quotes$/);
    fireEvent.click((await widget.view.findAllByRole('button', { name: /Turkey/ }))[0] as HTMLElement);
    fireEvent.click(await widget.view.findByRole('button', { name: /1 GB, 7 days/ }));
    expect(await widget.view.findByText('We will try again in 4 seconds.')).toBeTruthy();
    await passTimeUntil(() => quotes().length === 2, 6000);
    expect(await widget.view.findByRole('timer')).toBeTruthy();
    expect((quotes()[1]?.at ?? 0) - (quotes()[0]?.at ?? 0)).toBeGreaterThanOrEqual(4000);
  });

  it('tries three times by itself (5, 10, 20 s without Retry-After), then leaves the button and asks nothing more', async () => {
    const bff = new FakeBff();
    for (let i = 0; i < 1 + PASSING_RETRIES; i++) {
      bff.failNext('GET', /\/destinations$/, 'upstream_unavailable', 503);
    }
    const widget = await mountWidget(bff);
    expect((await widget.view.findByRole('alert')).textContent).toContain('We will try again in 5 seconds.');
    await passTimeUntil(() => destinationReads(bff).length === 1 + PASSING_RETRIES, 60_000);
    await waitFor(() => expect(widget.view.getByRole('alert').textContent).not.toContain('We will try'));
    const waits = gaps(destinationReads(bff));
    expect(waits).toHaveLength(3);
    for (const [index, wait] of [5000, 10_000, 20_000].entries()) {
      expect(waits[index]).toBeGreaterThanOrEqual(wait);
      expect(waits[index]).toBeLessThan(wait + 500);
    }
    await passTime(10 * 60_000);
    expect(destinationReads(bff)).toHaveLength(1 + PASSING_RETRIES);
    // The traveller's tap still works.
    fireEvent.click(widget.view.getByRole('button', { name: 'Try again' }));
    await waitForAllDestinations(widget);
  });

  it('repeats a checkout refused as passing under the same idempotency key: one checkout, on to its progress', async () => {
    const bff = new FakeBff();
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'internal', 500, {}, 2);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    expect((await widget.view.findByRole('alert')).textContent).toContain('We will try again in 2 seconds.');
    const creates = () => bff.requestsTo('POST', /^\/v1\/checkouts$/);
    await passTimeUntil(() => creates().length === 2, 5000);
    const [failed, repeated] = creates();
    expect(repeated?.at ?? 0).toBeGreaterThanOrEqual((failed?.at ?? 0) + 2000);
    expect(failed?.headers['idempotency-key']).toBe('checkout-quote_1');
    expect(repeated?.headers['idempotency-key']).toBe('checkout-quote_1');
    expect(repeated?.body).toEqual(failed?.body);
    await waitFor(() =>
      expect(bff.requestsTo('GET', /^\/v1\/checkouts\/chk_quote_1$/).length).toBeGreaterThan(0),
    );
    expect(creates()).toHaveLength(2);
  });

  it('repeats a delivery link under its one key', async () => {
    const bff = new FakeBff();
    const widget = await buyAndInstall(bff);
    bff.failNext('POST', /\/delivery-links$/, 'upstream_unavailable', 503, {}, 2);
    fireEvent.click(widget.view.getByRole('button', { name: 'Send to my phone' }));
    const links = () => bff.requestsTo('POST', /\/delivery-links$/);
    await passTimeUntil(() => links().length === 2, 5000);
    expect(await widget.view.findByText('https://bff.example/d/secret-link-token')).toBeTruthy();
    const [failed, repeated] = links();
    expect(repeated?.headers['idempotency-key']).toBe(failed?.headers['idempotency-key']);
  });

  it('after its try by itself meets a failure of another kind (the price moved), shows that one’s way forward and stops', async () => {
    const bff = new FakeBff({ quotePrices: [450, 520] });
    const widget = await mountWidget(bff);
    await openCheckout(widget);
    fillCheckout(widget);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'upstream_unavailable', 503, {}, 2);
    bff.failNext('POST', /^\/v1\/checkouts$/, 'price_changed', 409);
    fireEvent.click(widget.view.getByRole('button', { name: 'Buy for $4.50' }));
    const creates = () => bff.requestsTo('POST', /^\/v1\/checkouts$/);
    await passTimeUntil(() => creates().length === 2, 5000);
    expect(await widget.view.findByText('The price has changed from $4.50 to $5.20.')).toBeTruthy();
    // Long past every try by itself, and well inside the new price's 10 minutes (the page's real time adds to it).
    await passTime(5 * 60_000);
    expect(creates()).toHaveLength(2);
    expect(widget.view.queryByText(/We will try/)).toBeNull();
    expect(widget.view.getByRole('button', { name: 'Buy for $5.20' })).toBeTruthy();
  });
});

describe('the notice', () => {
  async function renderNotice(error: unknown, failures: number | undefined) {
    const actions = { retry: vi.fn(), requote: vi.fn(), other_plan: vi.fn(), start_over: vi.fn() };
    render(
      <WidgetContext.Provider value={await testWidgetContext()}>
        <ErrorNotice error={error} actions={actions} failures={failures} />
      </WidgetContext.Provider>,
    );
    return actions;
  }

  it('never tries by itself an error the traveller must decide on (quote_expired and every other such code)', async () => {
    const codes = (Object.keys(ERROR_HANDLING) as WidgetErrorCode[]).filter(
      (code) => retryWorth(new WidgetApiError(code)) === null,
    );
    expect(codes).toContain('quote_expired');
    for (const code of codes) {
      const actions = await renderNotice(new WidgetApiError(code, {}, null, { retryAfterSeconds: 2 }), 1);
      await passTime(60_000);
      expect(screen.getByRole('alert').textContent, code).not.toContain('We will try');
      for (const [name, action] of Object.entries(actions))
        expect(action, `${code} ${name}`).not.toBeCalled();
      document.body.replaceChildren();
    }
  });

  it('leaves a passing failure to a step that counts no failures (the order’s progress polls by itself)', async () => {
    const actions = await renderNotice(new WidgetApiError('upstream_unavailable'), undefined);
    await passTime(60_000);
    expect(actions.retry).not.toBeCalled();
    expect(screen.getByRole('alert').textContent).not.toContain('We will try');
  });

  it('says when in every language', async () => {
    for (const locale of WIDGET_LOCALES) {
      const t = createTranslator(locale, await loadMessages(locale));
      for (const n of [2, 5, 21, 30]) {
        expect(t('retryingIn', { n }), `${locale} ${n}`).toMatch(new RegExp(`^\\D+ ${n} \\D+$`));
      }
    }
  });
});

describe('the pause', () => {
  it('is the Retry-After within 2..30 s, else 5, 10, 20 s; none after three tries', () => {
    expect(passingRetryDelayMs(7, 1)).toBe(7000);
    expect(passingRetryDelayMs(0, 1)).toBe(2000);
    expect(passingRetryDelayMs(3600, 2)).toBe(30_000);
    expect([1, 2, 3].map((failures) => passingRetryDelayMs(null, failures))).toEqual([5000, 10_000, 20_000]);
    expect(passingRetryDelayMs(null, 4)).toBeNull();
    expect(passingRetryDelayMs(7, 4)).toBeNull();
  });

  it('reads Retry-After as whole seconds, nothing else', () => {
    expect(retryAfterSecondsOf('7')).toBe(7);
    expect(retryAfterSecondsOf(null)).toBeNull();
    expect(retryAfterSecondsOf('')).toBeNull();
    expect(retryAfterSecondsOf('-1')).toBeNull();
    expect(retryAfterSecondsOf('soon')).toBeNull();
    expect(retryAfterSecondsOf('Wed, 21 Oct 2026 07:28:00 GMT')).toBeNull();
  });
});
