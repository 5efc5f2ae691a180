/**
 * The traveller reloads the page while the eSIM is being issued (provisioning takes a few seconds in this
 * sandbox): the widget comes back on the same checkout, keeps following it, and shows its installation.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('a reload during provisioning resumes the same checkout', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.slow}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Norway', 'Norway');
  await widget.choosePlan();
  await widget.buy();
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  await expect(widget.root.getByRole('heading', { name: 'Preparing your eSIM' })).toBeVisible();
  await expect(widget.qrCode()).toHaveCount(0);

  await page.reload();
  // Back on the same checkout (still issuing, or ready by now), never on the first screen.
  await expect(
    widget.root
      .getByRole('heading', { name: 'Preparing your eSIM' })
      .or(widget.root.getByRole('heading', { name: 'Install your eSIM' })),
  ).toBeVisible();
  await expect(widget.root.getByRole('heading', { name: 'Where are you going?' })).toHaveCount(0);
  await widget.installed();
  const purchase = await waitForWidgetEvent(page, 'esim-purchase');
  expect(purchase.detail.checkoutId).toBe(checkout.detail.checkoutId);
});
