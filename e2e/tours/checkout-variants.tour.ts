/**
 * Pictures of the checkout's variants, on a phone (360×740) and a desktop (1280×800), in each language, written to
 * `e2e/screenshots/<locale>/checkout-<variant>-<device>.png`: consent in the buy button's words, and the device
 * check as an Android phone without an eSIM, an Android phone with one, an iPhone and a computer see it (the
 * phones' user agent and Client Hints set over the DevTools protocol). `SCREENSHOT_LOCALES=en,ru` narrows the
 * languages.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LocaleSchema } from '@esim-embed/shared';
import { expect, type Page } from '@playwright/test';
import { test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

const OUT = fileURLToPath(new URL('../screenshots/', import.meta.url));
const DEVICES = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;
const LOCALES =
  process.env.SCREENSHOT_LOCALES?.split(',').map((locale) => locale.trim()) ?? LocaleSchema.options;

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Who looks at the checkout: the widget it shows and the device the browser claims to be. */
const VARIANTS = {
  'consent-button': { widget: TEST_WIDGETS.consentButton, device: null },
  'device-incapable': {
    widget: TEST_WIDGETS.longBrand,
    device: { userAgent: ANDROID_UA, model: 'SM-A135F' },
  },
  'device-capable': { widget: TEST_WIDGETS.longBrand, device: { userAgent: ANDROID_UA, model: 'SM-S918B' } },
  'device-iphone': { widget: TEST_WIDGETS.longBrand, device: { userAgent: IPHONE_UA, model: null } },
  'device-computer': { widget: TEST_WIDGETS.longBrand, device: null },
} as const;

async function claimDevice(page: Page, device: { userAgent: string; model: string | null }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent: device.userAgent,
    ...(device.model === null
      ? {}
      : {
          userAgentMetadata: {
            brands: [{ brand: 'Chromium', version: '131' }],
            platform: 'Android',
            platformVersion: '14.0.0',
            architecture: '',
            model: device.model,
            mobile: true,
          },
        }),
  });
}

test.use({ viewport: DEVICES.phone });

for (const locale of LOCALES) {
  for (const [variant, { widget: widgetId, device }] of Object.entries(VARIANTS)) {
    test(`checkout ${variant} in ${locale}`, async ({ page, stack }) => {
      mkdirSync(`${OUT}${locale}`, { recursive: true });
      if (device) await claimDevice(page, device);
      await page.goto(`${stack.pages}/embed.html?widget=${widgetId}&locale=${locale}`);
      const widget = page.locator('esim-widget');
      await expect(widget.locator('[part~="destination"]').first()).toBeVisible({ timeout: 20_000 });
      await widget.locator('input[part~="input"]').first().fill('FR');
      await widget.locator('[part~="destination"]').first().click();
      await widget.locator('[part~="plan"]').first().getByRole('button').click();
      await expect(widget.locator('[part~="device-check"]')).toBeVisible();
      await expect(widget.locator('[part~="primary-button"]')).toBeEnabled();
      for (const [name, size] of Object.entries(DEVICES)) {
        await page.setViewportSize(size);
        await page.screenshot({
          path: `${OUT}${locale}/checkout-${variant}-${name}.png`,
          fullPage: true,
          animations: 'disabled',
        });
      }
    });
  }
}
