/**
 * Two widgets of two partners on one page work independently: each its own session, brand, currency and
 * language; searching or buying in one leaves the other where it was.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('two widgets on one page do not interfere', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/two-widgets.html?first=${TEST_WIDGETS.direct}&second=${TEST_WIDGETS.rub}`);
  const usd = new WidgetFlow(page, '#first esim-widget');
  const rub = new WidgetFlow(page, '#second esim-widget');
  await usd.ready();
  await expect(rub.root.getByRole('heading', { name: 'Куда вы едете?' })).toBeVisible();
  await waitForWidgetEvent(page, 'esim-ready', TEST_WIDGETS.direct);
  await waitForWidgetEvent(page, 'esim-ready', TEST_WIDGETS.rub);

  // Each in its partner's brand: its own logo, loaded (served by the BFF to a page on another site).
  for (const [flow, logo] of [
    [usd, 'globetrotter.svg'],
    [rub, 'aurora.svg'],
  ] as const) {
    const image = flow.root.locator('[part~="logo"]');
    await expect(image).toHaveAttribute('src', new RegExp(`/partners/${logo}$`));
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }

  // Whole roubles in the RUB widget, dollars and cents in the other.
  // textContent, not innerText: destinations below the fold skip layout (content-visibility), so their innerText is empty.
  // The list is drawn in slices after `esim-ready`: wait until each widget shows its prices, then read them.
  const pricesOf = (flow: WidgetFlow) => async () =>
    (await flow.root.locator('[part~="destination"]').allTextContents()).join(' ');
  await expect.poll(pricesOf(rub)).toContain('₽');
  expect(await pricesOf(rub)()).not.toMatch(/\d,\d{2}\s?₽/);
  await expect.poll(pricesOf(usd)).toContain('$');

  await usd.chooseDestination('France', 'France');
  await usd.choosePlan();
  await usd.buy();
  await usd.installed();
  await expect(rub.root.getByRole('heading', { name: 'Куда вы едете?' })).toBeVisible();
  await expect(rub.qrCode()).toHaveCount(0);

  const purchase = await waitForWidgetEvent(page, 'esim-purchase');
  expect(purchase.widgetId).toBe(TEST_WIDGETS.direct);
  expect(purchase.detail.amount).toMatchObject({ currency: 'USD' });
});
