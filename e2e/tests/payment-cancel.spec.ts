/**
 * The traveller abandons a `partner_confirm` payment on the widget's waiting screen: the time left to pay
 * counts down; Cancel cancels the checkout with its client secret (the partner's server reads it `cancelled`
 * and can no longer confirm it), the host page hears `esim-cancel`, and the widget offers to start again;
 * "Choose another plan" cancels the same way and opens the plans of the same destination.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import type { StackUrls } from '../support/stack-urls';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** Records the element's `esim-cancel` events (the fixtures' recorder knows the purchase events only). */
const CANCEL_RECORDER = `document.addEventListener('esim-cancel', (event) => {
  (window.__esimCancels = window.__esimCancels || []).push(event.detail);
});`;

async function cancels(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    () => (window as unknown as { __esimCancels?: Record<string, unknown>[] }).__esimCancels ?? [],
  );
}

/** Buys a plan of Spain in partner_confirm mode and waits on the payment screen; returns the checkout id. */
async function awaitPayment(page: Page, stack: StackUrls, widget: WidgetFlow): Promise<string> {
  await page.addInitScript({ content: CANCEL_RECORDER });
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.confirm}`);
  await widget.ready();
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  await widget.buy();
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
  return String(checkout.detail.checkoutId);
}

async function partnerView(stack: StackUrls, request: APIRequestContext, id: string) {
  const answer = await request.get(`${stack.bff}/v1/partner/checkouts/${id}`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as { status: string; order: unknown };
}

test('Cancel on the payment screen cancels the checkout and the widget can start again', async ({
  page,
  stack,
  request,
  expectHttpErrors,
}) => {
  const widget = new WidgetFlow(page);
  const checkoutId = await awaitPayment(page, stack, widget);
  expect((await partnerView(stack, request, checkoutId)).status).toBe('awaiting_payment');

  // The payment window runs down visibly (the checkout's expiresAt).
  const timer = widget.root.getByRole('timer');
  await expect(timer).toHaveText(/^Time left to pay: \d+:\d\d$/);
  const shown = await timer.textContent();
  await expect(timer).not.toHaveText(shown ?? '', { timeout: 5_000 });
  await expectNoSeriousA11yViolations(page, 'payment');

  await widget.root.getByRole('button', { name: 'Cancel' }).click();
  await expect(widget.root.getByText('The purchase was cancelled.')).toBeVisible();
  await expect(widget.root.getByRole('timer')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'cancelled');
  expect(await cancels(page)).toEqual([{ checkoutId, kind: 'issue', esimId: null, reason: 'cancelled' }]);
  const after = await partnerView(stack, request, checkoutId);
  expect(after).toMatchObject({ status: 'cancelled', order: null });
  // The partner's server hears it too: a signed checkout.cancelled reaches its webhook receiver.
  await expect
    .poll(async () => {
      const answer = await request.get(`${stack.bff}/demo-partner/ledger?checkoutId=${checkoutId}`);
      const events = (await answer.json()).data.events as { kind: string; result: string }[];
      return events.map((event) => `${event.kind}:${event.result}`);
    })
    .toContain('esim_webhook:checkout.cancelled');

  // The partner's late confirm is refused: nothing is ordered for a cancelled checkout.
  expectHttpErrors(409);
  const confirm = await request.post(`${stack.bff}/v1/partner/checkouts/${checkoutId}/confirm`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
    data: {},
  });
  expect(confirm.status()).toBe(409);

  // Back to something usable: a new purchase starts from the destinations, and a reload does not resume.
  const startAgain = widget.root.getByRole('button', { name: 'Start again' });
  await expect(startAgain).toBeFocused();
  await startAgain.click();
  await widget.ready();
  await page.reload();
  await widget.ready();
});

test('Choose another plan cancels the checkout and opens the plans of the same destination', async ({
  page,
  stack,
  request,
}) => {
  const widget = new WidgetFlow(page);
  const checkoutId = await awaitPayment(page, stack, widget);
  await widget.root.getByRole('button', { name: 'Choose another plan' }).click();
  await expect(widget.root.getByRole('heading', { name: 'eSIM plans for Spain' })).toBeVisible();
  await expect(widget.root.locator('[part~="plan"]').first()).toBeVisible();
  expect(await cancels(page)).toEqual([{ checkoutId, kind: 'issue', esimId: null, reason: 'other_plan' }]);
  expect((await partnerView(stack, request, checkoutId)).status).toBe('cancelled');
});
