/**
 * The payment lifecycle a partner implements (docs/payments.md), run through the demo's partner server and its
 * pretend payment provider: a double submit charges once; a 3-D Secure payment keeps the widget waiting until
 * the provider's webhook leads to the confirm; a payment that completes after the checkout expired is refunded
 * when the confirm answers 409; closing the payment form cancels the checkout (the partner hears
 * `checkout.cancelled`); an order that fails after the confirm is refunded on `checkout.failed` while the widget
 * says that the partner refunds (`esim-failed`); a declined card is reported, shown to the traveller
 * (`esim-payment-declined`) and followed by another card under the next attempt's key. What the partner
 * charged, refunded and received is read from its ledger (`GET /demo-partner/ledger`, test environment only).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import type { StackUrls } from '../support/stack-urls';
import { CLOCK_PATH } from '../support/test-bff';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

interface Ledger {
  charges: { id: string; amount: { amountMinor: number; currency: string }; status: string }[];
  refunds: { chargeId: string; amount: { amountMinor: number; currency: string }; reason: string }[];
  events: { kind: string; result: string; detail?: Record<string, unknown> }[];
}

/** What the demo partner server of the BFF at `bff` charged, refunded and heard for a checkout. */
async function ledger(request: APIRequestContext, bff: string, checkoutId: string): Promise<Ledger> {
  const answer = await request.get(`${bff}/demo-partner/ledger?checkoutId=${checkoutId}`);
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as Ledger;
}

/** The checkout as the partner reads it from the BFF at `bff`. */
async function partnerView(
  request: APIRequestContext,
  stack: StackUrls,
  checkoutId: string,
  bff = stack.bff,
) {
  const answer = await request.get(`${bff}/v1/partner/checkouts/${checkoutId}`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as {
    status: string;
    expiresAt: string;
    amount: { amountMinor: number; currency: string };
    paymentReference: string | null;
  };
}

/** On the demo in partner payment mode: buys a plan of Spain and waits for the partner's payment form. */
async function demoPayment(page: Page, stack: StackUrls, partner: string) {
  await page.goto(`${stack.bff}/?partner=${partner}&mode=partner_confirm&locale=en&theme=light`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  await widget.buy();
  const checkoutId = String((await waitForWidgetEvent(page, 'esim-checkout')).detail.checkoutId);
  const dialog = page.getByRole('dialog', { name: /^Pay / });
  await expect(dialog).toBeVisible();
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
  return { widget, checkoutId, dialog };
}

/**
 * On a partner page: buys a plan of Spain with `widgetId` from the BFF at `bff` and returns the checkout id the
 * widget handed over.
 */
async function embedCheckout(page: Page, stack: StackUrls, widgetId: string, bff = stack.bff) {
  await page.goto(`${stack.pages}/embed.html?widget=${widgetId}&bff=${encodeURIComponent(bff)}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  await widget.buy();
  return { widget, checkoutId: String((await waitForWidgetEvent(page, 'esim-checkout')).detail.checkoutId) };
}

test('a double submit charges once, for the amount the BFF holds, and the order is placed once', async ({
  page,
  stack,
  request,
}) => {
  const { widget, checkoutId, dialog } = await demoPayment(page, stack, 'lagoon');

  // Two submits at once (a double click that got through, a second tab), then the form's own button.
  const answers = await page.evaluate(async (id) => {
    const pay = () =>
      fetch('/demo-partner/payments', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ checkoutId: id, paymentMethod: 'pm_card_visa' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    return Promise.all([pay(), pay()]);
  }, checkoutId);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  expect(answers[0]?.body.data.chargeId).toBe(answers[1]?.body.data.chargeId);
  await dialog.getByRole('button', { name: /^Pay / }).click();
  await expect(dialog).toBeHidden();
  await widget.installed();

  const checkout = await partnerView(request, stack, checkoutId);
  const { charges, refunds } = await ledger(request, stack.bff, checkoutId);
  expect(charges).toHaveLength(1);
  expect(charges[0]).toMatchObject({ status: 'succeeded', amount: checkout.amount });
  expect(checkout.paymentReference).toBe(charges[0]?.id);
  expect(refunds).toEqual([]);
});

test('a 3-D Secure payment: the widget waits until the provider’s webhook leads to the confirm', async ({
  page,
  stack,
  request,
}) => {
  const { widget, checkoutId, dialog } = await demoPayment(page, stack, 'globetrotter');
  await dialog.getByLabel('Card number').fill('4000 0000 0000 3220');
  await dialog.getByRole('button', { name: /^Pay / }).click();
  const bank = dialog.getByRole('region', { name: 'Your bank asks you to approve this payment' });
  await expect(bank).toBeVisible();

  // Charged pending the bank: nothing is confirmed, the widget still waits for the payment.
  const pending = await ledger(request, stack.bff, checkoutId);
  expect(pending.charges).toMatchObject([{ status: 'requires_action' }]);
  expect((await partnerView(request, stack, checkoutId)).status).toBe('awaiting_payment');
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();

  await bank.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await widget.installed();

  const { charges, events, refunds } = await ledger(request, stack.bff, checkoutId);
  expect(charges).toMatchObject([{ status: 'succeeded' }]);
  const kinds = events.map((event) => `${event.kind}:${event.result}`);
  expect(kinds).toEqual(expect.arrayContaining(['provider_webhook:succeeded', 'confirm:200']));
  // The confirm followed the provider's webhook, never the page.
  expect(kinds.indexOf('confirm:200')).toBeGreaterThan(kinds.indexOf('provider_webhook:succeeded'));
  expect((await partnerView(request, stack, checkoutId)).paymentReference).toBe(charges[0]?.id);
  expect(refunds).toEqual([]);
});

test('a payment that completes after the checkout expired is refunded when the confirm answers 409', async ({
  page,
  stack,
  request,
}) => {
  // Checkouts of this widget expire with their quote, a few seconds after it was made, on a BFF whose clock the
  // test moves past that instead of waiting for it.
  const bff = stack.bffMovableClock;
  const { widget, checkoutId } = await embedCheckout(page, stack, TEST_WIDGETS.confirmExpiring, bff);
  // The partner's page calls its server: it sends its own origin, as a browser does.
  const started = await request.post(`${bff}/demo-partner/payments`, {
    headers: { Origin: bff },
    data: { checkoutId, paymentMethod: 'pm_card_three_d_secure' },
  });
  expect(started.status()).toBe(202);
  const { chargeId, challengeUrl } = (await started.json()).data;

  // The traveller is slow at the bank: the checkout's payment window passes meanwhile.
  const awaiting = await partnerView(request, stack, checkoutId, bff);
  expect(awaiting.status).toBe('awaiting_payment');
  const moved = await request.post(`${bff}${CLOCK_PATH}`, {
    data: { ms: Math.max(0, Date.parse(awaiting.expiresAt) - Date.now()) + 1_000 },
  });
  expect(moved.ok()).toBe(true);
  await expect
    .poll(async () => (await partnerView(request, stack, checkoutId, bff)).status, { timeout: 20_000 })
    .toBe('expired');
  await expect(widget.root.getByText('The payment was not completed in time.')).toBeVisible();
  const approved = await request.post(`${bff}${challengeUrl}`, {
    headers: { Origin: bff },
    data: { approved: true },
  });
  expect((await approved.json()).data.status).toBe('succeeded');

  await expect.poll(async () => (await ledger(request, bff, checkoutId)).refunds.length).toBe(1);
  const { charges, refunds, events } = await ledger(request, bff, checkoutId);
  expect(charges).toMatchObject([{ id: chargeId, status: 'succeeded' }]);
  expect(refunds[0]).toMatchObject({ chargeId, amount: charges[0]?.amount });
  expect(refunds[0]?.reason).toContain('expired');
  expect(events).toContainEqual(
    expect.objectContaining({
      kind: 'confirm',
      result: '409',
      detail: expect.objectContaining({ status: 'expired' }),
    }),
  );
});

test('closing the payment form cancels the checkout, and the partner hears checkout.cancelled', async ({
  page,
  stack,
  request,
}) => {
  const { widget, checkoutId, dialog } = await demoPayment(page, stack, 'lagoon');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await expect.poll(async () => (await partnerView(request, stack, checkoutId)).status).toBe('cancelled');
  await expect(widget.root.getByText('The purchase was cancelled.')).toBeVisible();
  await expect
    .poll(async () =>
      (await ledger(request, stack.bff, checkoutId)).events.map((event) => `${event.kind}:${event.result}`),
    )
    .toEqual(
      expect.arrayContaining([
        'esim_webhook:checkout.awaiting_payment',
        'cancel:200',
        'esim_webhook:checkout.cancelled',
      ]),
    );
  const { charges, refunds } = await ledger(request, stack.bff, checkoutId);
  expect(charges).toEqual([]);
  expect(refunds).toEqual([]);
});

test('an order that fails after the confirm: the traveller is told the partner refunds, the page hears esim-failed, and checkout.failed refunds', async ({
  page,
  stack,
  request,
  widgetEvents,
}) => {
  await new SandboxControl(stack.sandboxes.failure).scenario('lagoon', 'provisioning_failed', 1);
  const { widget, checkoutId } = await embedCheckout(page, stack, TEST_WIDGETS.confirmFailing);
  const paid = await request.post(`${stack.bff}/demo-partner/payments`, {
    headers: { Origin: stack.bff },
    data: { checkoutId, paymentMethod: 'pm_card_visa' },
  });
  expect(paid.status()).toBe(200);
  const { chargeId } = (await paid.json()).data;

  // The partner charged: the widget names who refunds, and never says the traveller was not charged.
  await expect(
    widget.root.getByText(/^We could not issue your eSIM\. .+ is refunding your payment now\.$/),
  ).toBeVisible({ timeout: 20_000 });
  await expect(widget.root.getByText(/not been charged/)).toHaveCount(0);
  expect((await waitForWidgetEvent(page, 'esim-failed')).detail).toMatchObject({
    checkoutId,
    mode: 'partner_confirm',
    code: 'provisioning_failed',
    refundedBy: 'partner',
  });
  expect((await widgetEvents()).some((event) => event.type === 'esim-purchase')).toBe(false);
  await expect.poll(async () => (await ledger(request, stack.bff, checkoutId)).refunds.length).toBe(1);
  const { refunds, events } = await ledger(request, stack.bff, checkoutId);
  expect(refunds[0]).toMatchObject({ chargeId });
  expect(refunds[0]?.reason).toContain('checkout.failed');
  expect(events.map((event) => `${event.kind}:${event.result}`)).toEqual(
    expect.arrayContaining(['confirm:200', 'esim_webhook:checkout.failed']),
  );
});

test('a declined card: the widget says so, the page hears esim-payment-declined, and another card pays under the next key', async ({
  page,
  stack,
  request,
  widgetEvents,
}) => {
  const { widget, checkoutId } = await embedCheckout(page, stack, TEST_WIDGETS.confirm);
  const pay = (paymentMethod: string) =>
    request.post(`${stack.bff}/demo-partner/payments`, {
      headers: { Origin: stack.bff },
      data: { checkoutId, paymentMethod },
    });
  const declined = await pay('pm_card_declined');
  expect(declined.status()).toBe(402);

  // The partner server reported the decline: the traveller reads it, the checkout still awaits payment.
  await expect(widget.root.getByRole('heading', { name: 'Payment declined' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(widget.root.getByText(/^Your payment was declined\. Try another card/)).toBeVisible();
  await expect(widget.root.getByRole('timer')).toBeVisible();
  expect((await waitForWidgetEvent(page, 'esim-payment-declined')).detail).toEqual({
    checkoutId,
    kind: 'issue',
    esimId: null,
    attempt: 1,
    nextAttempt: 2,
  });
  expect((await partnerView(request, stack, checkoutId)).status).toBe('awaiting_payment');

  // Another card: the page is handed the checkout again, for the second attempt.
  await widget.root.getByRole('button', { name: 'Try another card' }).click();
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
  await expect
    .poll(async () =>
      (await widgetEvents())
        .filter((event) => event.type === 'esim-checkout')
        .map((event) => event.detail.attempt),
    )
    .toEqual([1, 2]);
  expect((await pay('pm_card_visa')).status()).toBe(200);
  await widget.installed();

  const { charges, events, refunds } = await ledger(request, stack.bff, checkoutId);
  expect(
    charges.map((charge) => [charge.status, (charge as { idempotencyKey?: string }).idempotencyKey]),
  ).toEqual([
    ['failed', checkoutId],
    ['succeeded', `${checkoutId}:attempt-2`],
  ]);
  expect(events.map((event) => `${event.kind}:${event.result}`)).toEqual(
    expect.arrayContaining(['decline:200', 'confirm:200']),
  );
  expect(refunds).toEqual([]);
  expect((await partnerView(request, stack, checkoutId)).paymentReference).toBe(charges[1]?.id);
});

test('the partner server refuses a webhook without a valid signature', async ({ stack, request }) => {
  const forged = await request.post(`${stack.bff}/demo-partner/webhooks`, {
    headers: { 'Esim-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    data: { id: 'evt_forged', type: 'checkout.failed', data: { checkout: { id: 'chk_any' } } },
  });
  expect(forged.status()).toBe(400);
});
