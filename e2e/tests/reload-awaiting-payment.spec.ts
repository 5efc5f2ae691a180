/**
 * The traveller reloads the page while a `partner_confirm` checkout awaits payment: the host page's payment
 * form is gone with the reload, so the widget, back on the same checkout, fires `esim-checkout` again with
 * `resumed: true` (the first one said `resumed: false`), and the host can reopen its form for that checkout.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** More than the longest pause between the widget's status polls (8 s, `steps/progress-step.tsx`). */
const LONGEST_POLL_PAUSE_MS = 10_000;

test('a reload while the payment is awaited fires esim-checkout again with resumed: true', async ({
  page,
  stack,
  request,
  widgetEvents,
}) => {
  // The page's clock runs as the real one until the test moves it (on this page and the reloaded one).
  await page.clock.install();
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.confirm}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('Italy', 'Italy');
  await widget.choosePlan();
  await widget.buy('traveller@example.com');
  const first = await waitForWidgetEvent(page, 'esim-checkout');
  expect(first.detail).toMatchObject({ mode: 'partner_confirm', resumed: false });
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();

  await page.reload();
  const again = await waitForWidgetEvent(page, 'esim-checkout');
  expect(again.detail).toEqual({ ...first.detail, resumed: true });
  await expect(widget.root.getByRole('heading', { name: 'Complete your payment' })).toBeVisible();
  await expect(widget.root.getByRole('heading', { name: 'Where are you going?' })).toHaveCount(0);

  // Still one checkout awaiting payment, and the status polls that follow do not fire it a third time.
  const partner = await request.get(`${stack.bff}/v1/partner/checkouts/${first.detail.checkoutId}`, {
    headers: { 'X-Partner-Secret': stack.partnerSecret },
  });
  expect((await partner.json()).data.status).toBe('awaiting_payment');
  // Three more polls, each brought forward on the page's clock: the widget asks again only once it handled the
  // answer before, so the fourth request means three answers were handled.
  const statusRead = (url: string) => url.endsWith(`/v1/checkouts/${first.detail.checkoutId}`);
  for (let poll = 0; poll < 4; poll++) {
    const asked = page.waitForRequest((read) => read.method() === 'GET' && statusRead(read.url()));
    await page.clock.fastForward(LONGEST_POLL_PAUSE_MS);
    await asked;
  }
  expect((await widgetEvents()).filter((event) => event.type === 'esim-checkout')).toHaveLength(1);
});
