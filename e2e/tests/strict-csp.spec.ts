/**
 * A partner page with a strict Content-Security-Policy (the one the widget publishes and its README shows,
 * `strictPartnerCsp`: no inline script or style, Trusted Types required, only the BFF's origin allowed) runs
 * the whole purchase with no policy violation.
 */
import { formatCsp, strictPartnerCsp } from '@esim-embed/widget';
import { expect, test } from '../support/fixtures';
import { decodeQrCode } from '../support/qr-decoder';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test('the widget works under the documented strict CSP', async ({ page, stack }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto(`${stack.pages}/strict-csp.html?widget=${TEST_WIDGETS.direct}`);
  expect(response?.headers()['content-security-policy']).toBe(
    formatCsp(strictPartnerCsp({ bffOrigin: stack.bff })),
  );

  const widget = new WidgetFlow(page);
  await widget.purchase();
  expect(await decodeQrCode(widget.qrCode())).toMatch(/^LPA:1\$/);
  const violations = await page.evaluate(
    () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
  );
  expect(violations).toEqual([]);
});
