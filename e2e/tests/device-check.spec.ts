/**
 * The device check before the buy button in a real Chromium, with the Client Hints a phone's Chrome sends set
 * through the DevTools protocol (`Emulation.setUserAgentOverride` with `userAgentMetadata`): an Android model
 * without an eSIM is warned, a capable one is told so with no warning, a computer gets the `*#06#` advice; each
 * verdict reaches the page as `esim-device-check`, and the buy button stays usable.
 */
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

/** Makes the page's Chromium say it is an Android phone of this model, as a phone's Chrome does. */
async function pretendAndroidPhone(page: Page, model: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    userAgentMetadata: {
      brands: [{ brand: 'Chromium', version: '131' }],
      platform: 'Android',
      platformVersion: '14.0.0',
      architecture: '',
      model,
      mobile: true,
    },
  });
}

/** Opens Portugal's cheapest plan at the checkout and returns the widget. */
async function atCheckout(page: Page, pagesUrl: string): Promise<WidgetFlow> {
  await page.goto(`${pagesUrl}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Portugal', 'Portugal');
  await widget.choosePlan();
  await expect(widget.root.getByRole('button', { name: EN.buy })).toBeEnabled();
  return widget;
}

test.describe('on an Android phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('a Galaxy A13 (no eSIM) is warned, and can still buy', async ({ page, stack, widgetEvents }) => {
    await pretendAndroidPhone(page, 'SM-A135F');
    const widget = await atCheckout(page, stack.pages);
    const check = widget.root.locator('[part~="device-check"]');
    await expect(check).toHaveAttribute('data-verdict', 'incapable');
    await expect(check).toContainText('Your Galaxy A13 cannot take an eSIM');
    await expectNoSeriousA11yViolations(page, 'checkout with the device warning');
    expect((await widgetEvents()).filter((event) => event.type === 'esim-device-check')).toEqual([
      {
        type: 'esim-device-check',
        detail: { verdict: 'incapable', device: 'android', model: 'SM-A135F' },
        widgetId: TEST_WIDGETS.direct,
      },
    ]);
    await widget.buy();
    await widget.installed();
  });

  test('a Pixel 8 is told it can take one, with no warning', async ({ page, stack, widgetEvents }) => {
    await pretendAndroidPhone(page, 'Pixel 8');
    const widget = await atCheckout(page, stack.pages);
    const check = widget.root.locator('[part~="device-check"]');
    await expect(check).toHaveAttribute('data-verdict', 'capable');
    await expect(check).toContainText('Your Pixel 8 can take an eSIM.');
    await expect(widget.root.getByText(/cannot take an eSIM/)).toHaveCount(0);
    const verdicts = (await widgetEvents()).filter((event) => event.type === 'esim-device-check');
    expect(verdicts.map((event) => event.detail)).toEqual([
      { verdict: 'capable', device: 'android', model: 'Pixel 8' },
    ]);
  });
});

test('a computer gets the *#06# advice', async ({ page, stack, widgetEvents }) => {
  const widget = await atCheckout(page, stack.pages);
  const check = widget.root.locator('[part~="device-check"]');
  await expect(check).toHaveAttribute('data-verdict', 'unknown');
  await expect(check).toContainText('dial *#06# on it: if it shows an EID, it can');
  await expect(check).toContainText('A phone locked to a carrier cannot use another operator’s eSIM.');
  const verdicts = (await widgetEvents()).filter((event) => event.type === 'esim-device-check');
  expect(verdicts.map((event) => event.detail)).toEqual([
    { verdict: 'unknown', device: 'desktop', model: null },
  ]);
});
