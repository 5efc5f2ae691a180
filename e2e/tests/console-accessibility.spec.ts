/**
 * Every page of the partner console passes axe with no violation at all, in light and dark, and is usable at
 * 360 px (nothing wider than the screen), in a real Chromium (issue #39). The page runs under the BFF's strict
 * CSP (no inline script or style): a refused script or style would log an error and fail the test.
 */
import { expectNoA11yViolations, saleOf, signIn } from '../support/console-page';
import { expect, test } from '../support/fixtures';
import { TEST_CONSOLE_PASSWORD, TEST_CONSOLE_USERS, TEST_WIDGETS } from '../support/test-config';

for (const { scheme, width } of [
  { scheme: 'light', width: 1280 },
  { scheme: 'dark', width: 360 },
] as const) {
  test(`every console page passes axe (${scheme}, ${width} px)`, async ({
    page,
    stack,
    expectHttpErrors,
  }) => {
    test.setTimeout(120_000);
    expectHttpErrors(401);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    const email = `axe.${scheme}.${Date.now()}@example.com`;
    const checkoutId = await saleOf(stack, TEST_WIDGETS.console, email);
    const fits = async (where: string) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${where} is wider than the screen`).toBeLessThanOrEqual(0);
      await expectNoA11yViolations(page, `${where} (${scheme}, ${width} px)`);
    };

    await page.goto(`${stack.bff}/console/`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await fits('the sign-in page');
    await signIn(page, stack, 'admin');
    await page.keyboard.type(email);
    await expect(page.getByRole('row').filter({ hasText: checkoutId })).toBeVisible();
    await fits('the sales search');
    await page.goto(`${stack.bff}/console/#/sales/${checkoutId}`);
    await expect(page.getByRole('heading', { name: `Sale ${checkoutId}` })).toBeVisible();
    await fits('a sale');
    for (const [link, heading] of [
      ['Webhooks', 'Webhooks’ health'],
      ['Money & sales', 'Money & sales'],
      ['Users', 'Users'],
      ['Audit log', 'Audit log'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      await fits(`the ${link} page`);
    }
  });
}

test('the console is used with the keyboard alone, in every language', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  expectHttpErrors(401);
  await page.goto(`${stack.bff}/console/`);
  // Tab to the language switch and choose German with the keyboard.
  const language = page.getByLabel('Language');
  await language.focus();
  await language.selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
  await page.getByLabel('Sprache').selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  const user = TEST_CONSOLE_USERS.support;
  await page.getByLabel('User name').focus();
  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(TEST_CONSOLE_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Signed in as ${user.username}`)).toBeVisible();
  await expect(page.getByLabel('Search')).toBeFocused();
});
