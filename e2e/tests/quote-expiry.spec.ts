/**
 * The price is held only until the quote's `expiresAt` (6 seconds in this sandbox): when the countdown runs
 * out the widget fetches a fresh quote by itself, shows it, and the purchase goes through on the new quote. The
 * quote's life passes at once rather than in real time: the sandbox's clock and the page's are moved forward
 * together, so the upstream and the traveller agree on what is expired.
 */
import { amountOf, expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('an expired quote is re-quoted and the purchase completes on the fresh one', async ({
  page,
  stack,
  widgetEvents,
}) => {
  // The page's clock runs as the real one until the test moves it.
  await page.clock.install();
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.shortQuote}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('France', 'France');
  await widget.choosePlan();

  const first = await waitForWidgetEvent(page, 'esim-quote');
  const held = Date.parse(String(first.detail.expiresAt)) - Date.now();
  expect(held, 'the short-TTL sandbox holds prices for about 6 s').toBeLessThan(8_000);
  await expect(widget.root.getByText(/Price held for/)).toBeVisible();

  // The held time passes, for the sandbox and for the page. No click: the countdown alone must bring a second quote.
  const passed = Math.max(0, held) + 1_000;
  await new SandboxControl(stack.sandboxes.shortQuote).advanceClock(passed);
  await page.clock.fastForward(passed);
  await expect
    .poll(async () => (await widgetEvents()).filter((event) => event.type === 'esim-quote').length, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(2);
  const quotes = (await widgetEvents()).filter((event) => event.type === 'esim-quote');
  const fresh = quotes.at(-1);
  expect(fresh?.detail.quoteId).not.toBe(first.detail.quoteId);
  expect(Date.parse(String(fresh?.detail.expiresAt))).toBeGreaterThan(
    Date.parse(String(first.detail.expiresAt)),
  );

  await widget.buy();
  await widget.installed();
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  expect(amountOf(checkout.detail.amount)).toBe(amountOf(fresh?.detail.amount));
});
