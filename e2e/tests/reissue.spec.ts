/**
 * A reissue after the sale, in a real Chromium: the traveller buys and installs an eSIM that then fails; the
 * partner's server asks for a reissue (`installation_failed`, accepted for the service's review), the sandbox's
 * control API completes the review, and the traveller's own manage link now opens the replacement eSIM — not
 * installed yet, so its installation (a new activation code) is offered again in "my eSIM".
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** Records the manage-link events on `window.__esimManageLinks`. */
const RECORDER = `(() => {
  window.__esimManageLinks = window.__esimManageLinks || [];
  document.addEventListener('esim-manage-link', (event) => window.__esimManageLinks.push(event.detail));
})();`;

async function manageLink(page: Page): Promise<{ url: string; esimId: string }> {
  const read = () =>
    page.evaluate(
      () =>
        (window as unknown as { __esimManageLinks?: { url: string; esimId: string }[] }).__esimManageLinks ??
        [],
    );
  await expect.poll(async () => (await read()).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [link] = await read();
  if (!link) throw new Error('no esim-manage-link event');
  return link;
}

test('a completed reissue reaches the traveller’s my eSIM with a new installation', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const installation = page.waitForResponse(
    (response) => /\/v1\/checkouts\/[^/]+\/installation$/.test(response.url()) && response.ok(),
  );
  await page.addInitScript({ content: RECORDER });
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.reissue}&locale=en`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('FR', 'France');
  await widget.choosePlan();
  await widget.buy();
  await widget.installed();
  const first = ((await (await installation).json()) as { data: { activationCode: string } }).data;
  const { url, esimId } = await manageLink(page);

  // The traveller installs it on the phone, where it never connects.
  const sandbox = stack.sandboxes.main;
  const control = (path: string, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Control': sandbox.controlSecret },
      body: JSON.stringify(body),
    });
  expect((await control(`/esims/${encodeURIComponent(esimId)}`, { install: true })).ok).toBe(true);
  await page.goto(url);
  await expect(widget.root.getByRole('heading', { name: 'My eSIM' })).toBeVisible({ timeout: 20_000 });
  await expect(widget.root.getByRole('button', { name: 'Show the installation' })).toHaveCount(0);

  // The partner's support asks for a reissue; the service's review completes it.
  const partner = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.bff}${path}`, {
      ...init,
      headers: {
        'Content-Type': 'application/json',
        'X-Partner-Secret': stack.partnerSecret,
        ...init.headers,
      },
    });
  const asked = await partner(`/v1/partner/esims/${encodeURIComponent(esimId)}/action-requests`, {
    method: 'POST',
    headers: { 'Idempotency-Key': `e2e-reissue-${Date.now()}` },
    body: JSON.stringify({ reasonCode: 'installation_failed', reasonDetail: 'Installed, never connects' }),
  });
  expect(asked.status).toBe(201);
  const request = ((await asked.json()) as { data: { id: string; type: string; status: string } }).data;
  expect(request).toMatchObject({ type: 'reissue', status: 'requested' });
  const resolved = await control(`/action-requests/${encodeURIComponent(request.id)}/resolve`, {
    outcome: 'completed',
  });
  expect(resolved.ok).toBe(true);
  const done = await partner(`/v1/partner/action-requests/${encodeURIComponent(request.id)}`);
  const after = ((await done.json()) as { data: { status: string; replacementEsimId: string | null } }).data;
  expect(after.status).toBe('completed');
  expect(after.replacementEsimId).not.toBeNull();

  // The same manage link (kept by the tab) now opens the replacement: not installed, its installation offered.
  await page.reload();
  await expect(widget.root.getByRole('heading', { name: 'My eSIM' })).toBeVisible({ timeout: 20_000 });
  const again = page.waitForResponse(
    (response) => response.url().endsWith('/v1/my-esim/installation') && response.ok(),
  );
  await widget.root.getByRole('button', { name: 'Show the installation' }).click();
  const second = ((await (await again).json()) as { data: { esimId: string; activationCode: string } }).data;
  expect(second.esimId).toBe(after.replacementEsimId);
  expect(second.activationCode).not.toBe(first.activationCode);
  await expect(widget.root.getByText(second.activationCode, { exact: true })).toBeVisible();
});
