/**
 * A page view costs no session: loading the widget and browsing destinations and a country's plans asks the
 * BFF for the widget's start and reads the public catalog, with no `POST /v1/sessions`; choosing a plan (the
 * quote) opens exactly one session, and the purchase completes on it.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('the session begins at the quote: none while browsing, exactly one for the purchase', async ({
  page,
  stack,
}) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/v1/')) calls.push(`${request.method()} ${pathname}`);
  });
  const sessions = () => calls.filter((call) => call === 'POST /v1/sessions');

  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await waitForWidgetEvent(page, 'esim-ready');
  await widget.chooseDestination('FR', 'France');
  await expect(widget.root.locator('[part~="plan"]').first()).toBeVisible();

  expect(calls).toContain(`GET /v1/widgets/${TEST_WIDGETS.direct}/start`);
  const catalog = `GET /v1/catalog/${TEST_WIDGETS.direct}/[^/]+/en`;
  expect(calls.filter((call) => new RegExp(`^${catalog}/destinations$`).test(call))).toHaveLength(1);
  expect(calls.filter((call) => new RegExp(`^${catalog}/plans/FR$`).test(call))).toHaveLength(1);
  expect(sessions(), 'browsing opened no session').toEqual([]);

  await widget.choosePlan();
  await waitForWidgetEvent(page, 'esim-quote');
  expect(sessions(), 'the quote opened one session').toHaveLength(1);
  await widget.buy();
  await widget.installed();
  expect(sessions(), 'the purchase needed no other session').toHaveLength(1);
  expect(calls.filter((call) => call.startsWith('GET /v1/widgets/'))).toHaveLength(1);
});
