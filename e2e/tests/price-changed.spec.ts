/**
 * The partner's price moves between the quote and the order (`price_changed` upstream, forced through the
 * sandbox's control API for the quoted offer): the widget does not sell at the old price, shows the new one,
 * and sells at it once the traveller agrees.
 */
import { amountOf, expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

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
  const oldAmount = amountOf(first.detail.amount);

  await sandbox.bumpPricing(String(first.detail.offerId));
  await widget.buy();

  await expect(
    widget.root.getByText(/The price has changed from .+ to .+\./),
    'the widget shows the new price instead of selling at the old one',
  ).toBeVisible({ timeout: 15_000 });
  await expect(widget.qrCode()).toHaveCount(0);
  const events = await widgetEvents();
  expect(events.filter((event) => event.type === 'esim-error').map((event) => event.detail.code)).toContain(
    'price_changed',
  );
  expect(
    events.filter((event) => event.type === 'esim-checkout' && amountOf(event.detail.amount) === oldAmount),
    'nothing was handed to checkout at the old price',
  ).toEqual([]);
  const quotes = events.filter((event) => event.type === 'esim-quote');
  expect(quotes.length, 'a fresh quote was fetched').toBeGreaterThanOrEqual(2);
  const newAmount = amountOf(quotes.at(-1)?.detail.amount);
  expect(newAmount).not.toBe(oldAmount);

  await widget.root.getByRole('button', { name: EN.buy }).click();
  await widget.installed();
  const purchase = await waitForWidgetEvent(page, 'esim-purchase');
  expect(amountOf(purchase.detail.amount), 'sold at the new price').toBe(newAmount);
});
