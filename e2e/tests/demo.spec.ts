/**
 * The sales demo as a salesperson uses it: the showcase switches partner, language, theme and checkout mode
 * without errors and keeps the embed snippet in step; the plain-HTML page embeds by script tag alone.
 */
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { WidgetFlow } from '../support/widget-flow';

test('the showcase switches brand, language, theme and mode', async ({ page, stack, widgetEvents }) => {
  await page.goto(`${stack.bff}/`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await expect(page.locator('#snippet-script')).toContainText('widget-id="demo-globetrotter"');
  await expect(page.locator('#snippet-script')).toContainText(`${stack.bff}/widget.js`);
  await expectNoSeriousA11yViolations(page, 'showcase');

  await page.getByRole('radio', { name: /Аврора/ }).check();
  await expect(page.locator('esim-widget')).toHaveAttribute('widget-id', 'demo-aurora');
  await expect(page.locator('#snippet-script')).toContainText('widget-id="demo-aurora"');
  // Whole roubles: "RUB 479" in English, never kopecks.
  await expect(widget.root.locator('[part~="destination"]').first()).toContainText(
    /RUB\s?[\d\s,]+(?![.,]\d)|₽/,
  );
  await expect(widget.root.locator('[part~="destination"]').first()).not.toContainText(/RUB\s?\d+[.,]\d\d/);

  await page.getByLabel('Language').selectOption('de');
  await expect(widget.root.getByRole('heading', { name: 'Wohin reisen Sie?' })).toBeVisible();
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('esim-widget')).toHaveAttribute('theme', 'dark');
  await expectNoSeriousA11yViolations(page, 'showcase in dark, German, RUB');
  await page.getByRole('radio', { name: 'Partner payment' }).check();
  await expect(page.locator('esim-widget')).toHaveAttribute('widget-id', 'demo-aurora-pay');
  await expect(page).toHaveURL(/partner=aurora/);
  await expect(page).toHaveURL(/mode=partner_confirm/);
  await expect
    .poll(
      async () =>
        (await widgetEvents()).filter((event) => event.type === 'esim-ready').at(-1)?.detail.checkoutMode,
    )
    .toBe('partner_confirm');

  await page.getByRole('tab', { name: 'npm' }).click();
  await expect(page.locator('#snippet-npm')).toContainText(
    "import { defineEsimWidget } from '@esim-embed/widget'",
  );
  // The JSX is React's component, which works in React 18 too, not `<esim-widget>` labelled for every framework.
  await expect(page.locator('#snippet-npm')).toContainText('<EsimWidget widget-id="demo-aurora-pay"');
  await expect(page.locator('#snippet-script')).toBeHidden();
});

test('the embed snippet is copied as shown', async ({ page, stack, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.bff });
  await page.goto(`${stack.bff}/?partner=lagoon&mode=partner_confirm&theme=dark`);
  await new WidgetFlow(page).ready();
  const snippet = page.locator('#snippet-script');
  await expect(snippet).toContainText('widget-id="demo-lagoon-pay"');
  await expect(snippet).toContainText('theme="dark"');
  await expect(snippet).toContainText("addEventListener('esim-checkout'");
  await page.getByRole('button', { name: 'Copy' }).first().click();
  await expect(page.getByRole('status')).toHaveText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.textContent());
  await expect(page.locator('#snippet-csp')).toContainText(`connect-src ${stack.bff};`);
});

test('the showcase fits a phone screen', async ({ page, stack }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${stack.bff}/?partner=aurora&locale=ru&theme=dark&mode=partner_confirm`);
  await expect(page.locator('esim-widget').getByRole('heading', { name: 'Куда вы едете?' })).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await expect(page.getByRole('radio', { name: /Аврора/ })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'showcase on a phone');
});

test('the plain-HTML page embeds by script tag alone', async ({ page, stack }) => {
  await page.goto(`${stack.bff}/plain.html`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await expectNoSeriousA11yViolations(page, 'plain page');
  expect((await waitForWidgetEvent(page, 'esim-ready')).detail.widgetId).toBe('demo-lagoon');
});
