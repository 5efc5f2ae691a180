/**
 * An admin of the partner console adds a user with a second factor, in a real Chromium (issue #39): the page
 * shows the enrolment once — a QR code and its secret — and the new user signs in with a code computed from that
 * secret, as their authenticator app would; the audit log lists the addition.
 */
import { expectNoA11yViolations, signIn, totpFromSecret } from '../support/console-page';
import { expect, test } from '../support/fixtures';

test('an admin adds a user with a second factor, who then signs in with its code', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  expectHttpErrors(401);
  const username = `agent-${Date.now()}`;
  const password = 'a long first password 42';
  await signIn(page, stack, 'admin');
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  const form = page.getByRole('region', { name: 'Add a user' });
  await form.getByLabel('User name').fill(username);
  await form.getByLabel('First password (12 characters or more)').fill(password);
  await form.getByLabel('Role').selectOption('support');
  await expect(form.getByLabel('With a second factor (required for admins in live)')).toBeChecked();
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form.getByText(`${username} was added.`)).toBeVisible();
  await expect(form.locator('[data-otpauth-qr]')).toBeVisible();
  const secret = (await form.locator('[data-otp-secret]').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await expect(page.getByRole('row').filter({ hasText: username })).toContainText('Yes');
  await expectNoA11yViolations(page, 'the users page with a new second factor');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'User added' }).first()).toBeVisible();

  // The new user signs in: the password, then the code their app shows.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('Code from your authenticator app');
  await expect(code).toBeFocused();
  await code.fill(totpFromSecret(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${username} (support)`)).toBeVisible();
});
