/**
 * A partner page under the CSP the widget publishes (`strictPartnerCsp`: `img-src` names the BFF alone) with a widget
 * whose config names no logo, while the upstream account has one: the BFF serves the account's logo from its
 * own origin, so the logo is drawn and the page records no policy violation. The test runs its own sandbox,
 * whose account logos live on an HTTPS image host the test starts (the BFF is let through to it), and its own
 * BFF (the shared stack's widgets all set a logo of their own, and its sandboxes name an image host that does not
 * resolve).
 */
import { type LogoHost, startLogoHost } from '@esim-embed/bff/testing';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { formatCsp, strictPartnerCsp } from '@esim-embed/widget';
import { expect, test } from '../support/fixtures';
import { type PageServer, startPageServer } from '../support/page-server';
import { SANDBOX_ROLES, type SandboxRole } from '../support/stack-urls';
import { type RunningBff, startTestBff } from '../support/test-bff';
import { TEST_WIDGETS, testBffConfig } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** The policy the widget publishes for a brand with no logo of its own: `img-src` names the BFF alone. */
const PUBLISHED_CSP = formatCsp(strictPartnerCsp({ bffOrigin: '{{bff}}' }));

let logoHost: LogoHost;
let sandbox: RunningSandbox;
let pages: PageServer;
let bff: RunningBff;
const pageValues: Record<string, string> = {};

test.beforeAll(async () => {
  logoHost = await startLogoHost();
  // The seeded accounts' logos: https://127.0.0.1:<port>/assets/logos/<brand>.png, on the test's image host.
  sandbox = await startSandbox({ brandAssetsBaseUrl: logoHost.logoUrl(''), offerCount: 60 });
  pages = await startPageServer({
    host: '127.0.0.1',
    hostname: 'localhost',
    values: pageValues,
    headers: { '/embed.html': { 'Content-Security-Policy': PUBLISHED_CSP } },
  });
  bff = await startTestBff(
    () => {
      const built = testBffConfig({
        sandboxes: Object.fromEntries(SANDBOX_ROLES.map((role) => [role, sandbox.url])) as Record<
          SandboxRole,
          string
        >,
        keys: { ...SANDBOX_KEYS },
        allowedOrigins: [pages.origin],
      });
      const direct = built.config.widgets.find((widget) => widget.id === TEST_WIDGETS.direct);
      if (direct === undefined) throw new Error(`the test config has no ${TEST_WIDGETS.direct} widget`);
      // No logoUrl: the upstream account's logo is the widget's.
      return { ...built, config: { ...built.config, widgets: [{ ...direct, brand: {} }] } };
    },
    { logoTestHost: logoHost.testHost },
  );
  pageValues.bff = bff.origin;
});
test.afterAll(async () => {
  await bff?.close();
  await pages?.close();
  await sandbox?.close();
  await logoHost?.close();
});

test('the upstream account’s logo shows under the published CSP with no violation', async ({ page }) => {
  const consoleViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
  });
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto(`${pages.origin}/embed.html?widget=${TEST_WIDGETS.direct}&locale=en`);
  expect(response?.headers()['content-security-policy']).toBe(
    PUBLISHED_CSP.replaceAll('{{bff}}', bff.origin),
  );

  const widget = new WidgetFlow(page);
  await widget.ready();
  const logo = widget.root.locator('img[part~="logo"]');
  await expect(logo).toBeVisible();
  await expect
    .poll(() => logo.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0)))
    .toBeGreaterThan(0);
  expect(await logo.getAttribute('src')).toMatch(
    new RegExp(`^${bff.origin}/v1/brand/${TEST_WIDGETS.direct}/logo/`),
  );
  expect(logoHost.requests.some((path) => path.startsWith('/assets/logos/'))).toBe(true);

  const violations = await page.evaluate(
    () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
  );
  expect(violations).toEqual([]);
  expect(consoleViolations).toEqual([]);
});
