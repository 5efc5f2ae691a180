/**
 * A page on an origin the widget does not allow (another loopback address) gets a clear refusal inside the
 * widget — not a spinner, not a broken store — from the widget's start, and no session.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

test('an origin that is not allowed is refused clearly', async ({ page, stack, expectHttpErrors }) => {
  expectHttpErrors(403);
  const statuses: number[] = [];
  const sessions: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith(`/v1/widgets/${TEST_WIDGETS.direct}/start`)) statuses.push(response.status());
    if (response.url().endsWith('/v1/sessions')) sessions.push(response.url());
  });
  await page.goto(`${stack.foreignPages}/embed.html?widget=${TEST_WIDGETS.direct}`);

  const widget = page.locator('esim-widget');
  const notice = widget.locator('[part~="error"]');
  await expect(notice).toBeVisible({ timeout: 15_000 });
  expect(statuses).toEqual([403]);
  expect(sessions).toEqual([]);
  await expect(notice).toHaveAttribute('data-code', 'widget_origin_forbidden');
  await expect(notice).toContainText('This store is not available on this website');
  await expect(widget.getByRole('heading', { name: 'Where are you going?' })).toHaveCount(0);
  expect((await waitForWidgetEvent(page, 'esim-error')).detail.code).toBe('widget_origin_forbidden');
});
