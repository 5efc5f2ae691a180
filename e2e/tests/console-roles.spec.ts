/**
 * Who may do what in the partner console, in a real Chromium (issue #39): a `viewer` sees a sale without a
 * single write button and the API refuses its write (403); a user of partner B never sees partner A's sale, by
 * search or by address; a write without the session's CSRF token, or with another, is refused.
 */
import { consoleCall, saleOf, signIn } from '../support/console-page';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

test('a viewer reads a sale without any write button, and the API refuses its write', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  expectHttpErrors(401, 403);
  const email = `viewer.${Date.now()}@example.com`;
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, email);
  await signIn(page, stack, 'viewer');
  await page.goto(`${stack.bff}/console/#/sales/${checkoutId}`);
  await expect(page.getByRole('heading', { name: `Sale ${checkoutId}` })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // The rows a support user would resend are there (so the button's absence below is the role's, not an empty
  // page's), as is the help requests' section whose form a viewer is not given.
  await expect(async () => {
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Webhook deliveries' }).locator('[data-delivery]').first(),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Help requests' })).toBeVisible();
  for (const name of ['Resend', 'Send the request', 'Make a delivery link', 'Make a manage link']) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'Erase the traveller’s data' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);

  const refused = await consoleCall(page, 'POST', `/sales/${checkoutId}/help-requests`, {
    body: { reasonCode: 'service_not_delivered' },
    csrf: 'session',
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error).toMatchObject({ code: 'forbidden', params: { reason: 'role' } });
});

test('a user of partner B never sees partner A’s sale', async ({ page, stack, expectHttpErrors }) => {
  expectHttpErrors(401, 404);
  const email = `partner-a.${Date.now()}@example.com`;
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, email);
  await signIn(page, stack, 'partnerB');
  await page.keyboard.type(email);
  await expect(page.getByText('No sale matches.')).toBeVisible();
  await page.getByLabel('Search').fill(checkoutId);
  await expect(page.getByText('No sale matches.')).toBeVisible();
  await expect(page.getByText(checkoutId)).toHaveCount(0);

  await page.goto(`${stack.bff}/console/#/sales/${checkoutId}`);
  await expect(page.getByRole('alert')).toHaveText('Not found.');
  await expect(page.getByText(email)).toHaveCount(0);
  const read = await consoleCall(page, 'GET', `/sales/${checkoutId}`);
  expect(read.status).toBe(404);
});

test('a write without the session’s CSRF token, or with another, is refused', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  expectHttpErrors(401, 403);
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, `csrf.${Date.now()}@example.com`);
  await signIn(page, stack, 'support');
  for (const csrf of [undefined, 'not-the-session-token-0123456789']) {
    const refused = await consoleCall(page, 'POST', `/sales/${checkoutId}/manage-links`, {
      body: {},
      ...(csrf === undefined ? {} : { csrf }),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', params: { reason: 'csrf_token' } });
  }
  // The same write with the session's token goes through.
  const made = await consoleCall(page, 'POST', `/sales/${checkoutId}/manage-links`, {
    body: {},
    csrf: 'session',
  });
  expect(made.status).toBe(201);
});
