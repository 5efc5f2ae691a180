/**
 * @module
 * The partner console in the browser tests: a sale made as a traveller makes it (over HTTP, on a console test
 * widget), signing in as one of the stack's console users, the console API called from inside the page (its
 * cookie and CSRF token, as the page itself sends them), an axe scan that allows no violation at all, and a
 * second factor's code computed from the secret the page shows.
 */
import AxeBuilder from '@axe-core/playwright';
import { checkoutOnPage, currentTotp, openWidget } from '@esim-embed/bff/testing';
import { expect, type Page } from '@playwright/test';
import type { StackUrls } from './stack-urls';
import { TEST_CONSOLE_PASSWORD, TEST_CONSOLE_USERS } from './test-config';

/**
 * A checkout on `widgetId` (a direct console test widget) with the traveller's `email`, paid; its id once ready.
 * `partnerSecret` opens the widget's partner API (partner A's, the suite's, by default).
 */
export async function saleOf(
  stack: StackUrls,
  widgetId: string,
  email: string,
  partnerSecret = stack.partnerSecret,
): Promise<string> {
  const widget = await openWidget(stack.bff, widgetId, stack.pages);
  // Right after the stack starts, the widget's catalog may still be on its way from the sandbox.
  await expect
    .poll(async () => (await widget.get('/v1/destinations?locale=en')).status, {
      timeout: 30_000,
      message: `the catalog of ${widgetId}`,
    })
    .toBe(200);
  const checkoutId = await checkoutOnPage(widget, { email });
  await expect
    .poll(
      async () => {
        const read = await fetch(`${stack.bff}/v1/partner/checkouts/${checkoutId}`, {
          headers: { 'X-Partner-Secret': partnerSecret },
        });
        return ((await read.json()) as { data?: { status: string } }).data?.status;
      },
      { timeout: 30_000, message: `checkout ${checkoutId} ready` },
    )
    .toBe('ready');
  return checkoutId;
}

/** Opens the console and signs in as one of the suite's console users (none has a second factor). */
export async function signIn(
  page: Page,
  stack: StackUrls,
  who: keyof typeof TEST_CONSOLE_USERS,
): Promise<void> {
  const user = TEST_CONSOLE_USERS[who];
  await page.goto(`${stack.bff}/console/`);
  await page.getByLabel('User name').fill(user.username);
  await page.getByLabel('Password').fill(TEST_CONSOLE_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${user.username}`)).toBeVisible();
}

/** A console API answer as the page gets it. */
export interface PageAnswer {
  status: number;
  body: { data?: unknown; error?: { code: string; params?: Record<string, unknown> } };
}

/**
 * Calls the console API from inside the page (its session cookie goes along as the browser sends it);
 * `csrf`: `session` sends the session's token, a string sends that, absent sends none.
 */
export async function consoleCall(
  page: Page,
  method: string,
  path: string,
  options: { body?: unknown; csrf?: 'session' | string } = {},
): Promise<PageAnswer> {
  return await page.evaluate(
    async ({ method, path, body, csrf }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (csrf === 'session') {
        const session = await (await fetch('/console/api/session')).json();
        headers['X-CSRF-Token'] = session.data.csrfToken;
      } else if (csrf !== undefined) {
        headers['X-CSRF-Token'] = csrf;
      }
      const answer = await fetch(`/console/api${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: await answer.json() };
    },
    { method, path, body: options.body, csrf: options.csrf },
  );
}

/** An axe scan of the console page as it is now that fails on any violation, whatever its impact. */
export async function expectNoA11yViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .setLegacyMode()
    .analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' > '))
        .join('; ')}`,
  );
  expect(violations, `accessibility violations on ${where}`).toEqual([]);
}

/** The bytes of a base32 secret (RFC 4648, as an `otpauth://` URI carries it). */
function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const letter of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(letter);
    if (value < 0) throw new Error(`not base32: ${text}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The current code of the second factor whose base32 secret the page showed (as an authenticator app has it). */
export const totpFromSecret = (secret: string): string => currentTotp(base32Bytes(secret));
