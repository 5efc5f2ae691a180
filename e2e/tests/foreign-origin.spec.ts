/**
 * A page on an origin the widget does not allow (another loopback address) gets a clear refusal inside the
 * widget — not a spinner, not a broken store — and no session.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

test('an origin that is not allowed is refused clearly', async ({ page, stack, expectHttpErrors }) => {
  expectHttpErrors(403);
  const refused = page.waitForResponse((response) => response.url().endsWith('/v1/sessions'));
  await page.goto(`${stack.foreignPages}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const response = await refused;
  expect(response.status()).toBe(403);

  const widget = page.locator('esim-widget');
  const notice = widget.locator('[part~="error"]');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-code', 'widget_origin_forbidden');
  await expect(notice).toContainText('This store is not available on this website');
  await expect(widget.getByRole('heading', { name: 'Where are you going?' })).toHaveCount(0);
  expect((await waitForWidgetEvent(page, 'esim-error')).detail.code).toBe('widget_origin_forbidden');
});
