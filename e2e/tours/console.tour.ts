/**
 * The pictures of the partner console in `docs/console.md`, written to `docs/images/console-*.png` (checked in):
 * the sign-in page, the sales search, a sale's page, the webhooks' health, money and sales, and the users page on
 * a desktop (1280×800), and the sale's page on a phone (360×740) in the dark theme. Run by `pnpm screenshots`
 * (or `npx playwright test -c playwright.screenshots.config.ts console` in `e2e/`).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { saleOf, signIn } from '../support/console-page';
import { test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

const OUT = fileURLToPath(new URL('../../docs/images/', import.meta.url));

async function picture(page: Page, name: string): Promise<void> {
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await page.screenshot({ path: `${OUT}console-${name}.png`, fullPage: false });
}

test('the console’s pictures for its documentation', async ({ page, stack, expectHttpErrors }) => {
  test.setTimeout(120_000);
  expectHttpErrors(401);
  mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = `jane.${Date.now()}@example.com`;
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, email);

  await page.goto(`${stack.bff}/console/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await picture(page, 'sign-in');
  await signIn(page, stack, 'admin');
  await page.keyboard.type(email);
  await expect(page.getByRole('row').filter({ hasText: checkoutId })).toBeVisible();
  await picture(page, 'search');
  await page.getByRole('row').filter({ hasText: checkoutId }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await page.screenshot({ path: `${OUT}console-sale.png`, fullPage: true });
  for (const [link, name] of [
    ['Webhooks', 'webhooks'],
    ['Money & sales', 'money'],
    ['Users', 'users'],
  ] as const) {
    await page.getByRole('link', { name: link }).click();
    await expect(
      page.getByRole('heading', { name: link === 'Webhooks' ? 'Webhooks’ health' : link }),
    ).toBeVisible();
    await page.screenshot({ path: `${OUT}console-${name}.png`, fullPage: true });
  }

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${stack.bff}/console/#/sales/${checkoutId}`);
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await picture(page, 'sale-phone-dark');
});
