/**
 * The npm embed inside a single-page app (the demo's trip planner): route changes remove and re-add
 * `<esim-widget>`; each mount opens the store again, leaving the route aborts what was in flight, and nothing
 * logs an error or keeps running on the page afterwards (its timers of the next minute are run to see).
 */
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { WidgetFlow } from '../support/widget-flow';

test('mounting and unmounting the widget through SPA routes leaves no errors', async ({
  page,
  stack,
  widgetEvents,
}) => {
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/')) apiCalls.push(request.url());
  });
  // The page's clock runs as the real one until the test moves it.
  await page.clock.install();
  await page.goto(`${stack.bff}/spa/`);
  await expect(page.getByRole('heading', { name: /Lisbon/ })).toBeVisible();
  await expect(page.locator('esim-widget')).toHaveCount(0);

  await page.getByRole('link', { name: 'Mobile data', exact: true }).click();
  const widget = new WidgetFlow(page);
  await widget.ready();
  await expectNoSeriousA11yViolations(page, 'SPA route with the widget');

  // Leave while the widget is busy (plans loading), come back, leave again at once.
  await widget.chooseDestination('France', 'France');
  await page.getByRole('link', { name: 'Checklist' }).click();
  await expect(page.locator('esim-widget')).toHaveCount(0);
  await page.getByRole('link', { name: 'Mobile data', exact: true }).click();
  await page.getByRole('link', { name: 'My trip' }).click();
  await page.getByRole('link', { name: 'Mobile data', exact: true }).click();
  await widget.ready();
  await expect(page.locator('esim-widget')).toHaveCount(1);

  // The remounted widget works all the way.
  await widget.chooseDestination('France', 'France');
  await widget.choosePlan();
  await widget.buy();
  await widget.installed();

  // Once unmounted, the widget stops talking to the BFF: a minute of the page's timers runs at once, then a
  // moment of real time lets any request they started reach the log.
  await page.getByRole('link', { name: 'My trip' }).click();
  await expect(page.locator('esim-widget')).toHaveCount(0);
  const callsAfterUnmount = apiCalls.length;
  await page.clock.runFor(60_000);
  await page.waitForTimeout(500);
  expect(apiCalls.slice(callsAfterUnmount)).toEqual([]);
  expect((await widgetEvents()).filter((event) => event.type === 'esim-error')).toEqual([]);
});
