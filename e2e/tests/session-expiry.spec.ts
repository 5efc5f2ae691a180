/**
 * The session runs out while the traveller is on the checkout screen (this BFF issues 60-second sessions,
 * the shortest it allows, and the test moves its clock past them): pressing buy afterwards still completes the
 * purchase, without the traveller starting over.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { CLOCK_PATH } from '../support/test-bff';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

test('a session that expires mid-flow recovers by itself', async ({
  page,
  stack,
  expectHttpErrors,
  widgetEvents,
}) => {
  // The first call after expiry may be refused (401, or 410 for the quote of the old session) before recovery.
  expectHttpErrors(401, 404, 410);
  const sessions: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/v1/sessions') && response.ok()) sessions.push(response.url());
  });

  await page.goto(
    `${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}&bff=${encodeURIComponent(stack.bffShortSession)}`,
  );
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Greece', 'Greece');
  await widget.choosePlan();
  await waitForWidgetEvent(page, 'esim-quote');
  expect(sessions).toHaveLength(1);

  // The BFF's minute passes at once; the page's own clock is not moved, so the widget learns it from the BFF.
  const moved = await page.request.post(`${stack.bffShortSession}${CLOCK_PATH}`, { data: { ms: 62_000 } });
  expect(moved.ok()).toBe(true);
  await widget.buy();
  // The quote belonged to the expired session: the widget opens a new session and fetches a fresh price
  // by itself. If it had to re-quote, the traveller sees the price again and presses buy once more.
  const buyAgain = widget.root.getByRole('button', { name: EN.buy });
  const installHeading = widget.root.getByRole('heading', { name: EN.installHeading });
  await expect(installHeading.or(buyAgain)).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(async () => (await installHeading.isVisible()) || (await buyAgain.isEnabled()), { timeout: 20_000 })
    .toBe(true);
  if (!(await installHeading.isVisible())) await buyAgain.click();
  await widget.installed(30_000);
  expect(sessions.length, 'a new session was opened after the first expired').toBeGreaterThanOrEqual(2);
  const errors = (await widgetEvents()).filter((event) => event.type === 'esim-error');
  test.info().annotations.push({
    type: 'recovered from',
    description: JSON.stringify(errors.map((e) => e.detail.code)),
  });
});
