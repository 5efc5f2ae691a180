/**
 * On a 360×740 phone screen the whole purchase fits: no horizontal scrolling on any step, the widget
 * inside the viewport, the QR code fully visible.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

async function expectNoHorizontalScroll(page: Page, step: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow on the ${step} step`).toBeLessThanOrEqual(0);
  const box = await page.locator('esim-widget').boundingBox();
  expect(box, 'the widget is laid out').not.toBeNull();
  expect(
    (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 360,
    `widget within the screen (${step})`,
  ).toBe(true);
}

test('a phone-sized screen buys without horizontal scrolling', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await expectNoHorizontalScroll(page, 'destinations');
  await widget.chooseDestination('Portugal', 'Portugal');
  await expect(widget.root.locator('[part~="plan"]').first()).toBeVisible();
  await expectNoHorizontalScroll(page, 'plans');
  await widget.choosePlan();
  await expect(widget.root.getByRole('button', { name: /^Buy for / })).toBeEnabled();
  await expectNoHorizontalScroll(page, 'checkout');
  await widget.buy();
  await widget.installed();
  await expectNoHorizontalScroll(page, 'install');
  const qr = await widget.qrCode().boundingBox();
  expect(
    qr && qr.width >= 150 && qr.x >= 0 && qr.x + qr.width <= 360,
    'the QR code is whole and large enough',
  ).toBe(true);
});
