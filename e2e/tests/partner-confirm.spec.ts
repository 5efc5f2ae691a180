/**
 * `partner_confirm` through the demo, as a reseller runs it: the widget hands the checkout to the host page
 * (`esim-checkout`), the demo's partner payment form opens, paying calls the demo partner server, which confirms
 * the checkout with the BFF using the partner secret; only then is the order placed and the eSIM installed.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { WidgetFlow } from '../support/widget-flow';

test('the demo partner form pays and confirms a partner_confirm checkout', async ({
  page,
  stack,
  request,
}) => {
  await page.goto(`${stack.bff}/?partner=lagoon&mode=partner_confirm&locale=en&theme=light`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  expect((await waitForWidgetEvent(page, 'esim-ready')).detail).toMatchObject({
    widgetId: 'demo-lagoon-pay',
    checkoutMode: 'partner_confirm',
  });
  await widget.chooseDestination('Spain', 'Spain');
  await widget.choosePlan();
  await widget.buy();

  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  expect(checkout.detail.mode).toBe('partner_confirm');
  const checkoutId = String(checkout.detail.checkoutId);
  const partnerApi = `${stack.bff}/v1/partner/checkouts/${checkoutId}`;
  const headers = { 'X-Partner-Secret': stack.partnerSecret };

  // The widget waits for the partner; nothing is ordered yet.
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
  const before = await (await request.get(partnerApi, { headers })).json();
  expect(before.data).toMatchObject({ status: 'awaiting_payment', order: null, paymentReference: null });

  const dialog = page.getByRole('dialog', { name: /^Pay / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toContainText('$');
  await dialog.getByRole('button', { name: /^Pay / }).click();
  await expect(dialog).toBeHidden();

  await widget.installed();
  const after = await (await request.get(partnerApi, { headers })).json();
  expect(after.data.status).toBe('ready');
  expect(after.data.paymentReference).toMatch(/^demo-payment-/);
  expect(after.data.order).not.toBeNull();
  expect((await waitForWidgetEvent(page, 'esim-purchase')).detail.checkoutId).toBe(checkoutId);
});

test('without the partner secret nobody can confirm a checkout', async ({ stack, request }) => {
  const response = await request.post(`${stack.bff}/v1/partner/checkouts/chk_unknown/confirm`, {
    headers: { 'X-Partner-Secret': 'not-the-secret' },
    data: {},
  });
  expect(response.status()).toBeGreaterThanOrEqual(400);
  expect(response.status()).toBeLessThan(500);
  expect((await response.json()).error.code).toBeTruthy();
});
