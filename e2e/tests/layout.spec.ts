/**
 * Text fits on a phone: on every step of the purchase and of "my eSIM", at 320 and 360 px, in the five
 * languages and both themes, with a long brand name as the header (no logo) and the test-mode badge, nothing
 * scrolls sideways, no box clips its text and no word is broken inside (`support/layout-check.ts`). One page
 * session per language; the widths and themes are switched on each step, as a resize and a theme attribute. The
 * order is held on the progress screen while it is measured and delivered right after (`support/held-orders.ts`).
 * A short name beside the badge (Aurora's "Аврора") is the header that once broke inside the word: its first
 * screen is checked too.
 */
import { LocaleSchema } from '@esim-embed/shared';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { layoutProblems } from '../support/layout-check';
import { tourEveryStep } from '../support/step-tour';
import { LONG_BRAND_NAME, TEST_WIDGETS } from '../support/test-config';

const WIDTHS = [320, 360] as const;
const THEMES = ['light', 'dark'] as const;

test.use({ viewport: { width: 320, height: 740 }, isMobile: true, hasTouch: true });
// The tours share the `tour` sandbox, whose clock each moves to finish its order: one after another.
test.describe.configure({ mode: 'default' });

/** The layout problems of the current screen at each width and theme, named after `step`. */
async function problemsAtEveryWidth(page: Page, step: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    for (const theme of THEMES) {
      const at = `${step}, ${width}px, ${theme}`;
      for (const problem of await layoutProblems(page, { theme })) problems.push(`${at}: ${problem}`);
      // The test-mode badge stays one short line (its hidden rest of the sentence is for screen readers).
      const badgeLines = await page
        .locator('esim-widget [part~="header"] > span:last-child')
        .evaluate((badge) => {
          const range = document.createRange();
          range.selectNodeContents(badge.firstChild as Node);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
      if (badgeLines !== 1) problems.push(`${at}: the test-mode badge takes ${badgeLines} lines`);
    }
  }
  return problems;
}

for (const locale of LocaleSchema.options) {
  test(`every step fits at 320 and 360 px in ${locale}, light and dark`, async ({ page, stack }) => {
    const problems: string[] = [];
    const header = page.locator('esim-widget [part~="header"]');

    await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.auroraName}&locale=${locale}`);
    await expect(header).toContainText('Аврора', { timeout: 20_000 });
    problems.push(...(await problemsAtEveryWidth(page, 'Aurora header')));

    await page.setViewportSize({ width: 320, height: 740 });
    await tourEveryStep(
      page,
      `${stack.pages}/embed.html?widget=${TEST_WIDGETS.longBrand}&locale=${locale}`,
      stack.sandboxes.tour,
      async (step) => {
        if (step === 'destinations') await expect(header).toContainText(LONG_BRAND_NAME);
        problems.push(...(await problemsAtEveryWidth(page, step)));
      },
    );
    expect(problems, `what does not fit (${locale})`).toEqual([]);
  });
}
