/**
 * Every language the widget offers renders its first screen from its own table: the heading and the search
 * label are that language's texts, and no message key or unfilled `{placeholder}` shows anywhere.
 */
import { de, en, es, fr, ru } from '@esim-embed/widget-testing';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

const TABLES = { en, ru, es, de, fr } as const;
const KEYS = Object.keys(en);

for (const [locale, table] of Object.entries(TABLES)) {
  test(`the first screen in ${locale} has every text`, async ({ page, stack }) => {
    await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}&locale=${locale}`);
    const widget = page.locator('esim-widget');
    await expect(widget.getByRole('heading', { name: table.destinationsHeading })).toBeVisible({
      timeout: 20_000,
    });
    await expect(widget.getByLabel(table.searchLabel)).toBeVisible();
    await expect(widget.getByRole('heading', { name: table.popular })).toBeVisible();
    expect((await waitForWidgetEvent(page, 'esim-ready')).detail.locale).toBe(locale);

    const text = await widget.evaluate((element) => element.shadowRoot?.textContent ?? '');
    expect(text).not.toMatch(/\{\w+\}/);
    const leaked = KEYS.filter((key) => new RegExp(`\\b${key}\\b`).test(text));
    expect(leaked, 'message keys shown instead of text').toEqual([]);
    if (locale !== 'en') expect(text).not.toContain(en.destinationsHeading);
  });
}
