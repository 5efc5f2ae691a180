/**
 * The upstream fails to issue the eSIM (the sandbox's `provisioning_failed` scenario): the widget says so
 * honestly (not charged), reports `esim-error`… and lets the traveller start again.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { SandboxControl } from '../support/sandbox-control';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

test('a failed provisioning is shown with a way to start again', async ({ page, stack, widgetEvents }) => {
  const sandbox = new SandboxControl(stack.sandboxes.failure);
  await sandbox.scenario('globetrotter', 'provisioning_failed', 1);

  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.failure}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Italy', 'Italy');
  await widget.choosePlan();
  await widget.buy();
  await waitForWidgetEvent(page, 'esim-checkout');

  await expect(
    widget.root.getByText('We could not issue your eSIM. You have not been charged for it.'),
  ).toBeVisible({
    timeout: 20_000,
  });
  expect((await widgetEvents()).some((event) => event.type === 'esim-purchase')).toBe(false);
  await expect(widget.qrCode()).toHaveCount(0);

  await widget.root.getByRole('button', { name: 'Start again' }).click();
  await expect(widget.root.getByRole('heading', { name: EN.destinationsHeading })).toBeVisible();
});
