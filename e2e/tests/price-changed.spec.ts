/**
 * The partner's price moves between the quote and the order (`price_changed` upstream, forced through the
 * sandbox's control API): the widget does not sell at the old price, shows the new one, and sells at it.
 */
import { amountOf, expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('a price change at checkout shows the new price before the traveller buys', async ({
  page,
  stack,
  expectHttpErrors,
  widgetEvents,
}) => {
  expectHttpErrors(409);
  const sandbox = new SandboxControl(stack.sandboxes.priceChange);
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.priceChange}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Japan', 'Japan');
  await widget.choosePlan();
  const first = await waitForWidgetEvent(page, 'esim-quote');

  await sandbox.bumpPricing(String(first.detail.offerId));
  await widget.buy();

  const error = await waitForWidgetEvent(page, 'esim-error');
  expect(error.detail.code).toBe('price_changed');
  await expect(widget.root.getByText(/The price has changed from .+ to .+\./)).toBeVisible();
  await expect
    .poll(async () => (await widgetEvents()).filter((event) => event.type === 'esim-quote').length)
    .toBe(2);
  const [, fresh] = (await widgetEvents()).filter((event) => event.type === 'esim-quote');
  const newAmount = amountOf(fresh?.detail.amount);
  expect(newAmount).not.toBe(amountOf(first.detail.amount));
  // Nothing was bought at the old price.
  expect((await widgetEvents()).some((event) => event.type === 'esim-checkout')).toBe(false);

  await widget.root.getByRole('button', { name: /^Buy for / }).click();
  await widget.installed();
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  expect(checkout.detail.amount).toBe(newAmount);
});
