/**
 * The partner console's support story, in a real Chromium (issue #39): Jane bought an eSIM yesterday and it
 * "never arrived". A `support` user signs in, finds her sale by e-mail in at most three interactions, sees the
 * webhook delivery that failed (partner A's endpoint refuses), resends it once the endpoint is back and sees it
 * delivered, asks for a refund and — once the service's review completes it — sees it completed.
 */
import { saleOf, signIn } from '../support/console-page';
import { expect, test } from '../support/fixtures';
import { CONSOLE_REFUSED_DOMAIN, CONSOLE_WEBHOOKS_PATH, TEST_WIDGETS } from '../support/test-config';

test('support finds Jane’s sale by e-mail, resends its failed delivery and has it refunded', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  test.setTimeout(150_000);
  // Signed out at first: the page's read of its session is answered 401.
  expectHttpErrors(401);
  // Partner A's endpoint refuses the events of a traveller at this domain until the test lets them through.
  const email = `jane.${Date.now()}@${CONSOLE_REFUSED_DOMAIN}`;
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, email);
  // The sale's first webhook has a refused attempt before anyone looks.
  await expect
    .poll(
      async () => {
        const list = await fetch(`${stack.bff}/v1/partner/webhook-deliveries?checkoutId=${checkoutId}`, {
          headers: { 'X-Partner-Secret': stack.partnerSecret },
        });
        const deliveries = ((await list.json()) as { data: { attempts: { httpStatus: number | null }[] }[] })
          .data;
        return deliveries.some((delivery) => delivery.attempts.some((attempt) => attempt.httpStatus === 500));
      },
      { timeout: 60_000, message: 'a refused webhook attempt' },
    )
    .toBe(true);

  await signIn(page, stack, 'support');
  // Interaction 1: the search field has the focus on arrival; type the address.
  await page.keyboard.type(email);
  const row = page.getByRole('row').filter({ hasText: checkoutId });
  await expect(row).toHaveCount(1);
  // Interaction 2: open the sale.
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { name: `Sale ${checkoutId}` })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The failed delivery: its attempts answered 500.
  const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
  const failed = deliveries.getByRole('row').filter({ hasText: 'HTTP 500' }).first();
  await expect(failed).toBeVisible();
  const deliveryId = await failed.getAttribute('data-delivery');
  expect(deliveryId).not.toBeNull();

  // The endpoint is back; resend, and the delivery is delivered.
  const letThrough = await fetch(`${stack.bff}${CONSOLE_WEBHOOKS_PATH}/let-through/${checkoutId}`, {
    method: 'POST',
  });
  expect(letThrough.ok).toBe(true);
  const resent = deliveries.locator(`[data-delivery="${deliveryId}"]`);
  await resent.getByRole('button', { name: 'Resend' }).click();
  await expect(resent.getByText('Sent again.')).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Webhook deliveries' }).locator(`[data-delivery="${deliveryId}"]`),
    ).toContainText('Delivered', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });

  // A refund: asked here, completed by the service's review (the sandbox's control API), seen here.
  const help = page.getByRole('region', { name: 'Help requests' });
  await help.getByLabel('Reason').selectOption('service_not_delivered');
  await help.getByLabel('Note (optional)').fill('Never arrived');
  await help.getByRole('button', { name: 'Send the request' }).click();
  await expect(help.getByText('Done.')).toBeVisible();
  const request = help.locator('[data-help-request]').first();
  await expect(request).toContainText('Refund');
  const requestId = await request.getAttribute('data-help-request');
  const sandbox = stack.sandboxes.main;
  const resolved = await fetch(`${sandbox.url}/__sandbox/action-requests/${requestId}/resolve`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Control': sandbox.controlSecret },
    body: JSON.stringify({ outcome: 'completed' }),
  });
  expect(resolved.ok).toBe(true);
  await expect(async () => {
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Help requests' }).locator(`[data-help-request="${requestId}"]`),
    ).toContainText('Completed', { timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
});
