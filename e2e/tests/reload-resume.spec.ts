/**
 * The traveller reloads the page while the eSIM is being issued (this sandbox delivers only when the test moves
 * its clock, `support/held-orders.ts`): the widget comes back on the same checkout, still issuing, keeps following
 * it, and shows its installation once the order is delivered. The progress screen it waits on passes axe.
 */
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { deliverHeldOrders } from '../support/held-orders';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('a reload during provisioning resumes the same checkout', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.held}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Norway', 'Norway');
  await widget.choosePlan();
  await widget.buy();
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  await expect(widget.root.getByRole('heading', { name: 'Preparing your eSIM' })).toBeVisible();
  await expect(widget.qrCode()).toHaveCount(0);

  await page.reload();
  // Back on the same checkout, still issuing, never on the first screen.
  await expect(widget.root.getByRole('heading', { name: 'Preparing your eSIM' })).toBeVisible();
  await expect(widget.root.getByRole('heading', { name: 'Where are you going?' })).toHaveCount(0);
  await expect(widget.qrCode()).toHaveCount(0);
  // The progress screen, held here as long as the test looks (a quick sandbox passes it in a moment), passes axe.
  await expectNoSeriousA11yViolations(page, 'progress');
  // The order is delivered: the resumed widget, which kept following it, shows its installation.
  await deliverHeldOrders(stack.sandboxes.held);
  await widget.installed();
  const purchase = await waitForWidgetEvent(page, 'esim-purchase');
  expect(purchase.detail.checkoutId).toBe(checkout.detail.checkoutId);
});
