/**
 * @module
 * Every screen a traveller meets, in any language: the purchase (destinations, plans, checkout, progress,
 * install) and "my eSIM" (the view, its help, its installation again), reached through `part` names and roles
 * rather than texts. The layout check and the screenshots command both walk it and look at each stop.
 */
import { expect, type Page } from '@playwright/test';
import { holdProgress } from './held-orders';
import type { SandboxHandle } from './stack-urls';

/** The stops of the tour, in order. */
export const TOUR_STEPS = [
  'destinations',
  'plans',
  'checkout',
  'progress',
  'install',
  'my-esim',
  'my-esim-help',
  'my-esim-installation',
] as const;

/** One stop of the tour. */
export type TourStep = (typeof TOUR_STEPS)[number];

const MANAGE_LINK_RECORDER = `(() => {
  window.__esimManageLinks = window.__esimManageLinks || [];
  document.addEventListener('esim-manage-link', (event) => window.__esimManageLinks.push(event.detail.url));
})();`;

/**
 * Opens `pageUrl` and buys the first plan of the destination found by `search`, then opens the eSIM through
 * its manage link; `at` runs on each stop once it is on screen. The widget sells through `heldSandbox`, a sandbox
 * that delivers only when told (`held-orders.ts`): the progress screen stays while `at` looks at it, and the
 * installation follows at once. Tours on one held sandbox run one after another.
 */
export async function tourEveryStep(
  page: Page,
  pageUrl: string,
  heldSandbox: SandboxHandle,
  at: (step: TourStep) => Promise<void>,
  search = 'FR',
): Promise<void> {
  const widget = page.locator('esim-widget');
  await page.addInitScript({ content: MANAGE_LINK_RECORDER });
  await page.goto(pageUrl);

  await expect(widget.locator('[part~="destination"]').first()).toBeVisible({ timeout: 20_000 });
  await at('destinations');

  await widget.locator('input[part~="input"]').first().fill(search);
  await widget.locator('[part~="destination"]').first().click();
  await expect(widget.locator('[part~="plan"]').first()).toBeVisible();
  await at('plans');

  await widget.locator('[part~="plan"]').first().getByRole('button').click();
  const terms = widget.getByRole('checkbox');
  await expect(terms).toBeVisible();
  // The device check loads after the plan is chosen: the checkout is whole once it is there.
  await expect(widget.locator('[part~="device-check"]')).toBeVisible();
  await at('checkout');

  await terms.check();
  await widget.locator('[part~="primary-button"]').click();
  await expect(widget.locator('[aria-current="step"]')).toBeVisible();
  const release = await holdProgress(page, heldSandbox);
  await at('progress');
  await release();

  await expect(widget.locator('[part~="qr-code"]')).toBeVisible({ timeout: 30_000 });
  const manageLink = await page.waitForFunction(
    () => (window as unknown as { __esimManageLinks?: string[] }).__esimManageLinks?.[0],
    undefined,
    { timeout: 20_000 },
  );
  await at('install');

  await page.goto(String(await manageLink.jsonValue()));
  await expect(widget.locator('dl')).toBeVisible({ timeout: 20_000 });
  await at('my-esim');

  await widget.locator('button[aria-expanded]').first().click();
  await expect(widget.locator('#esim-help-advice p').first()).toBeVisible();
  await at('my-esim-help');

  await widget.locator('[part~="primary-button"]').first().click();
  await expect(widget.locator('[part~="qr-code"]')).toBeVisible({ timeout: 20_000 });
  await at('my-esim-installation');
}
