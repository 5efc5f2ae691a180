/**
 * A picture of every step of the purchase and of "my eSIM", on a phone (360×740) and a desktop (1280×800),
 * light and dark, in each language, written to `e2e/screenshots/<locale>/<nn>-<step>-<device>-<theme>.png` for
 * people to look at before a release. `SCREENSHOT_LOCALES=en,ru` narrows the languages.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LocaleSchema } from '@esim-embed/shared';
import { test } from '../support/fixtures';
import { TOUR_STEPS, tourEveryStep } from '../support/step-tour';
import { TEST_WIDGETS } from '../support/test-config';

const OUT = fileURLToPath(new URL('../screenshots/', import.meta.url));
const DEVICES = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;
const LOCALES =
  process.env.SCREENSHOT_LOCALES?.split(',').map((locale) => locale.trim()) ?? LocaleSchema.options;

test.use({ viewport: DEVICES.phone });
// The tours share the `tour` sandbox, whose clock each moves to finish its order: one after another.
test.describe.configure({ mode: 'default' });

for (const locale of LOCALES) {
  test(`screenshots of every step in ${locale}`, async ({ page, stack }) => {
    const widget = page.locator('esim-widget');
    mkdirSync(`${OUT}${locale}`, { recursive: true });
    await tourEveryStep(
      page,
      `${stack.pages}/embed.html?widget=${TEST_WIDGETS.longBrand}&locale=${locale}`,
      stack.sandboxes.tour,
      async (step) => {
        const number = String(TOUR_STEPS.indexOf(step) + 1).padStart(2, '0');
        for (const [device, size] of Object.entries(DEVICES)) {
          await page.setViewportSize(size);
          for (const theme of ['light', 'dark']) {
            await widget.evaluate((element, value) => element.setAttribute('theme', value), theme);
            await page.screenshot({
              path: `${OUT}${locale}/${number}-${step}-${device}-${theme}.png`,
              fullPage: true,
              animations: 'disabled',
            });
          }
        }
        await page.setViewportSize(DEVICES.phone);
      },
    );
  });
}
