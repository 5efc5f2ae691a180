/**
 * A declined payment attempt reported by the partner's server (`POST /v1/partner/checkouts/{id}/decline`),
 * over HTTP against the real sandbox: the checkout keeps awaiting payment and counts the declined attempts
 * (the widget's read says so too), the same report twice counts once, the next attempt can still be confirmed,
 * a checkout that is paid, ended or `direct` cannot be declined, and after 10 declines no payment starts.
 */
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: (url) => testConfig(url) });
});
afterAll(async () => {
  await stack?.close();
});

/** A checkout of the first plan, as the widget page makes it. */
async function checkoutOn(page: WidgetPage): Promise<{ id: string; clientSecret: string; status: string }> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const offerId = plans.body.data[0].offerId;
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  const created = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  expect(created.status, created.text).toBe(201);
  return created.body.data;
}

const partner = (path: string, body?: unknown) =>
  call(stack.server.url, path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    ...(body === undefined ? {} : { body }),
  });

describe('a declined payment attempt', () => {
  it('keeps the checkout awaiting payment, counted once per attempt, and a later card can pay', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id, clientSecret, status } = await checkoutOn(page);
    expect(status).toBe('awaiting_payment');

    const declined = await partner(`/v1/partner/checkouts/${id}/decline`, { attempt: 1 });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.body.data).toMatchObject({ id, status: 'awaiting_payment', declinedAttempts: 1 });
    // Reported twice (a retried call): still one declined attempt.
    const again = await partner(`/v1/partner/checkouts/${id}/decline`, { attempt: 1 });
    expect(again.body.data).toMatchObject({ status: 'awaiting_payment', declinedAttempts: 1 });
    // The traveller's widget reads it, to say the card was declined.
    const seen = await page.get(`/v1/checkouts/${id}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
    expect(seen.body.data).toMatchObject({ status: 'awaiting_payment', declinedAttempts: 1 });

    const confirmed = await partner(`/v1/partner/checkouts/${id}/confirm`, { paymentReference: 'pay_2nd' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.declinedAttempts).toBe(1);
    // A confirmed payment was taken: it cannot be declined afterwards.
    const late = await partner(`/v1/partner/checkouts/${id}/decline`, { attempt: 2 });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'invalid_transition' });
  });

  it('refuses a bad attempt number and a direct checkout, in the error envelope', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id } = await checkoutOn(page);
    for (const body of [{}, { attempt: 0 }, { attempt: 'one' }, { attempt: 1, extra: true }]) {
      const refused = await partner(`/v1/partner/checkouts/${id}/decline`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.error.code).toBe('validation_failed');
    }
    const direct = await checkoutOn(await openWidget(stack.server.url, 'shop'));
    const refused = await partner(`/v1/partner/checkouts/${direct.id}/decline`, { attempt: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_transition',
      params: { reason: 'direct_checkout' },
    });
  });

  it('after 10 declined attempts starts no payment, in the error envelope, and takes no 11th', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const { id } = await checkoutOn(page);
    for (let attempt = 1; attempt <= 9; attempt += 1) {
      expect((await partner(`/v1/partner/checkouts/${id}/decline`, { attempt })).status).toBe(200);
    }
    // Nine declines: the tenth card may still be tried.
    const ninth = await partner(`/v1/partner/checkouts/${id}/payment-started`, {});
    expect(ninth.status, ninth.text).toBe(200);
    const tenth = await partner(`/v1/partner/checkouts/${id}/decline`, { attempt: 10 });
    expect(tenth.body.data).toMatchObject({ status: 'awaiting_payment', declinedAttempts: 10 });

    const refused = await partner(`/v1/partner/checkouts/${id}/payment-started`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_transition',
      params: { reason: 'declined_attempts_exhausted', declinedAttempts: 10, maxDeclinedAttempts: 10 },
    });
    expect(refused.text).not.toMatch(/stack|at \w+ \(/);
    const eleventh = await partner(`/v1/partner/checkouts/${id}/decline`, { attempt: 11 });
    expect(eleventh.status).toBe(422);
    expect(eleventh.body.error.code).toBe('validation_failed');
    // The checkout can still be cancelled (the partner's way out).
    const cancelled = await partner(`/v1/partner/checkouts/${id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
  });
});
