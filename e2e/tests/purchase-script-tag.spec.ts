/**
 * A traveller buys a plan on a partner page that embeds the widget by script tag, in `direct` mode, and gets
 * a QR code that a phone can scan: the decoded QR equals the LPA of the installation data the BFF returned,
 * and the manual-entry details on screen are the same profile.
 */
import { amountOf, expect, test, waitForWidgetEvent } from '../support/fixtures';
import { decodeQrCode } from '../support/qr-decoder';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

test('direct purchase by script tag ends in a scannable QR code holding the LPA', async ({ page, stack }) => {
  const installation = page.waitForResponse(
    (response) => /\/v1\/checkouts\/[^/]+\/installation$/.test(response.url()) && response.ok(),
  );
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  const ready = await waitForWidgetEvent(page, 'esim-ready');
  expect(ready.detail).toMatchObject({
    widgetId: TEST_WIDGETS.direct,
    checkoutMode: 'direct',
    environment: 'test',
  });

  await widget.chooseDestination('FR', 'France');
  await widget.choosePlan();
  const quote = await waitForWidgetEvent(page, 'esim-quote');
  expect(quote.detail.amount).toMatchObject({ currency: 'USD' });
  await widget.buy();
  await widget.installed();

  const response = await installation;
  expect(response.headers()['cache-control']).toContain('no-store');
  const { data } = (await response.json()) as {
    data: { lpa: string; smdpAddress: string; activationCode: string };
  };
  expect(data.lpa).toBe(`LPA:1$${data.smdpAddress}$${data.activationCode}`);

  expect(await decodeQrCode(widget.qrCode())).toBe(data.lpa);
  await expect(widget.root.getByText(data.activationCode, { exact: true })).toBeVisible();
  await expect(widget.root.getByText(data.smdpAddress, { exact: true })).toBeVisible();

  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  const purchase = await waitForWidgetEvent(page, 'esim-purchase');
  expect(checkout.detail).toMatchObject({ mode: 'direct', amount: quote.detail.amount });
  expect(purchase.detail.checkoutId).toBe(checkout.detail.checkoutId);
  expect(purchase.detail.amount).toEqual(quote.detail.amount);
  expect(amountOf(purchase.detail.amount)).toBeGreaterThan(0);
  await expect(widget.root.getByRole('heading', { name: EN.installHeading })).toBeVisible();
});
