/**
 * After the sale, in a real Chromium against the real BFF and sandbox: a purchase gives a manage link (the
 * partner page's address with `#esim=<widget id>.<token>`); following it opens the eSIM's own view and takes the
 * token out of the address bar (a reload of the tab opens the view again); the sandbox installs and uses the
 * profile; the traveller tops it up through the same quote → checkout → progress steps (kind `top_up`) and asks
 * for help, which the host page hears as `esim-help`.
 */
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import type { SandboxHandle } from '../support/stack-urls';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** Records every widget event, the after-sale ones included, on `window.__esimAfterSale`. */
const RECORDER = `(() => {
  window.__esimAfterSale = window.__esimAfterSale || [];
  for (const type of ['esim-checkout', 'esim-purchase', 'esim-manage-link', 'esim-help']) {
    document.addEventListener(type, (event) => window.__esimAfterSale.push({ type, detail: event.detail }));
  }
})();`;

type Recorded = { type: string; detail: Record<string, unknown> };

async function recorded(page: Page, type: string): Promise<Recorded[]> {
  const all = await page.evaluate(
    () => (window as unknown as { __esimAfterSale?: Recorded[] }).__esimAfterSale ?? [],
  );
  return all.filter((event) => event.type === type);
}

/** Waits for the first recorded event of a type on the current page. */
async function firstEvent(page: Page, type: string): Promise<Recorded> {
  await expect.poll(async () => (await recorded(page, type)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [event] = await recorded(page, type);
  if (!event) throw new Error(`no ${type} event`);
  return event;
}

/** Buys, follows the manage link, tops up and asks for help on the partner page at `pageUrl`. */
async function afterSaleJourney(
  page: Page,
  sandbox: SandboxHandle,
  pageUrl: string,
  /** Extra checks on each after-sale screen (layout on a phone). */
  check: (step: string) => Promise<void> = async () => {},
): Promise<void> {
  await page.addInitScript({ content: RECORDER });
  await page.goto(pageUrl);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('FR', 'France');
  // A plan whose offer guarantees top-ups.
  await widget.root
    .locator('[part~="plan"]', { hasText: 'Top-up available' })
    .first()
    .getByRole('button')
    .click();
  await widget.buy();
  await widget.installed();

  // The way back: the page's own address with the token in the fragment, on screen and for the host page.
  const link = await firstEvent(page, 'esim-manage-link');
  const url = String(link.detail.url);
  const esimId = String(link.detail.esimId);
  // The host page heard which eSIM it bought as soon as it was issued, before the link.
  expect((await firstEvent(page, 'esim-purchase')).detail.esimId).toBe(esimId);
  // One short link (`#esim=<widget id>.<token>`): the same one however often the install step is shown.
  expect(url.startsWith(`${pageUrl}#esim=`)).toBe(true);
  expect(new URL(url).hash).toMatch(/^#esim=[a-z0-9_-]+\.[a-z2-7]{26}$/);
  // Offered as actions; the address itself shows on request.
  await widget.root.getByRole('button', { name: 'Show link' }).click();
  await expect(widget.root.getByText(url, { exact: true })).toBeVisible();
  await check('install with the manage link');

  // The traveller installs the eSIM and uses some data (the sandbox plays the network).
  const control = await fetch(`${sandbox.url}/__sandbox/esims/${encodeURIComponent(esimId)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Control': sandbox.controlSecret },
    body: JSON.stringify({ install: true, activate: true, usedMb: 300 }),
  });
  expect(control.ok, await control.text()).toBe(true);

  // Following the link on the same page opens the eSIM's view; so does a fresh load of it.
  await page.goto(url);
  await expect(widget.root.getByRole('heading', { name: 'My eSIM' })).toBeVisible({ timeout: 20_000 });
  // Once read, the token is out of the address bar (the page's scripts cannot read it); the tab keeps it.
  const token = new URL(url).hash.split('.').at(-1) ?? '';
  expect(page.url()).not.toContain(token);
  await page.reload();
  await expect(widget.root.getByRole('heading', { name: 'My eSIM' })).toBeVisible({ timeout: 20_000 });
  await expect(widget.root.getByText(/300 MB used/)).toBeVisible();
  await expect(widget.root.getByText('Activated', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'my eSIM');
  await check('my eSIM');

  // Top-up at a retail price, through the quote → checkout → progress steps.
  const offer = widget.root.getByRole('button', { name: /^Add / }).first();
  await expect(offer).toBeVisible();
  await offer.click();
  await expect(widget.root.getByRole('heading', { name: 'Top up' })).toBeVisible();
  await expect(widget.root.getByRole('timer')).toBeVisible();
  await check('top-up checkout');
  await widget.buy();
  await expect(widget.root.getByText(/Your top-up is on the eSIM/)).toBeVisible({ timeout: 30_000 });

  const checkout = await firstEvent(page, 'esim-checkout');
  expect(checkout.detail).toMatchObject({ kind: 'top_up', esimId, mode: 'direct' });
  const purchase = await firstEvent(page, 'esim-purchase');
  expect(purchase.detail).toMatchObject({ kind: 'top_up', esimId, checkoutId: checkout.detail.checkoutId });

  // Help: the partner's support contacts, and the host page hears about it.
  await widget.root.getByRole('button', { name: 'The eSIM is not working' }).click();
  await expect(widget.root.getByText(/Turn on the eSIM and data roaming/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'my eSIM with help open');
  await check('help');
  const help = await firstEvent(page, 'esim-help');
  expect(help.detail).toMatchObject({ esimId, reason: 'service_defective', checkoutId: null });
}

test('on a page of the BFF’s own origin (the plain demo page): a purchase gives a manage link that reopens the eSIM, topped up through the same checkout', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  await afterSaleJourney(page, stack.sandboxes.main, `${stack.bff}/plain.html`);
});

test('on a partner page of another origin (script tag): the same journey', async ({ page, stack }) => {
  test.setTimeout(120_000);
  await afterSaleJourney(
    page,
    stack.sandboxes.main,
    `${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}&locale=en&theme=light`,
  );
});

test.describe('on a phone in dark theme', () => {
  test.use({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    colorScheme: 'dark',
  });

  test('the same journey fits the screen (no horizontal scroll) and passes axe in dark theme', async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    await afterSaleJourney(
      page,
      stack.sandboxes.main,
      `${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}&locale=en&theme=dark`,
      async (step) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal overflow on the ${step} screen`).toBeLessThanOrEqual(0);
      },
    );
  });
});

test('a tampered manage link is refused with an honest message', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  // The BFF answers a bad manage token as an invalid session (401); the widget renews its session once.
  expectHttpErrors(401);
  await page.goto(`${stack.bff}/plain.html#esim=demo-lagoon.${'a'.repeat(26)}`);
  const widget = new WidgetFlow(page);
  await expect(widget.root.getByRole('heading', { name: 'My eSIM' })).toBeVisible({ timeout: 20_000 });
  await expect(widget.root.getByRole('alert')).toContainText('This link has expired or is no longer valid');
  expect(new URL(page.url()).hash).toBe('');
});
