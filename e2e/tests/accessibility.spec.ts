/**
 * An axe scan of every step of a purchase — first screen, search results, plans, checkout (with its
 * validation errors shown), payment hand-off and install — finds no serious or critical violation, in light and
 * in dark theme. The progress screen, which this sandbox passes in a moment, is scanned where an order is held
 * (`reload-resume.spec.ts`).
 */
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

for (const theme of ['light', 'dark'] as const) {
  test(`every step passes axe (${theme})`, async ({ page, stack }) => {
    await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.confirm}&theme=${theme}`);
    const widget = new WidgetFlow(page);
    await widget.ready();
    await expectNoSeriousA11yViolations(page, 'destinations');

    await widget.root.getByLabel(EN.searchLabel).fill('Ital');
    await expect(widget.root.locator('[part~="destination"]', { hasText: 'Italy' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'search results');

    await widget.root.locator('[part~="destination"]', { hasText: 'Italy' }).first().click();
    await expect(widget.root.locator('[part~="plan"]').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'plans');

    await widget.choosePlan();
    await expect(widget.root.getByRole('button', { name: EN.buy })).toBeEnabled();
    await expectNoSeriousA11yViolations(page, 'checkout');
    await widget.root.getByLabel('Email').fill('not-an-email');
    await widget.root.getByRole('button', { name: EN.buy }).click();
    await expect(widget.root.getByText('Enter an email address like name@example.com.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'checkout with errors');

    await widget.root.getByLabel('Email').fill('traveller@example.com');
    await widget.buy();
    const checkout = await waitForWidgetEvent(page, 'esim-checkout');
    await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'payment hand-off');

    const confirmed = await page.request.post(
      `${stack.bff}/v1/partner/checkouts/${checkout.detail.checkoutId}/confirm`,
      {
        headers: { 'X-Partner-Secret': stack.partnerSecret },
        data: { paymentReference: 'axe-test' },
      },
    );
    expect(confirmed.ok()).toBe(true);
    await widget.installed();
    await expectNoSeriousA11yViolations(page, 'install');
  });
}
