/**
 * `platform` delivery in a real Chromium: a widget configured `deliveryMode: 'platform'` asks for the
 * traveller's email, the purchase completes, and the sandbox's outbox (its control API) holds the email the
 * service would send — to that address, with the checkout id as reference, in the brand-aware presentation
 * (the partner's brand, its Reply-To, the service's attribution) — whose link opens the installation page.
 */
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

/** An email of the sandbox's outbox, as its control API answers it. */
interface OutboxEmail {
  to: string;
  reference: string | null;
  presentation: 'brand_aware' | 'standard';
  senderName: string;
  replyTo: string | null;
  attribution: string | null;
  subject: string;
  text: string;
  deliveryUrl: string;
}

test('the service emails the eSIM to the address the traveller gave', async ({ page, stack }) => {
  const email = `traveller+${Date.now()}@example.com`;
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.platformDelivery}`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  await widget.chooseDestination('France', 'France');
  await widget.choosePlan();
  await widget.buy(email);
  const checkout = await waitForWidgetEvent(page, 'esim-checkout');
  expect(checkout.detail).toMatchObject({ mode: 'direct', email });
  await widget.installed();

  const sandbox = stack.sandboxes.main;
  const outbox = async (): Promise<OutboxEmail[]> => {
    const response = await fetch(`${sandbox.url}/__sandbox/outbox?to=${encodeURIComponent(email)}`, {
      headers: { 'X-Sandbox-Control': sandbox.controlSecret },
    });
    expect(response.ok).toBe(true);
    return ((await response.json()) as { data: OutboxEmail[] }).data;
  };
  await expect.poll(async () => (await outbox()).length, { timeout: 15_000 }).toBe(1);
  const [sent] = await outbox();
  expect(sent).toMatchObject({
    to: email,
    reference: checkout.detail.checkoutId,
    presentation: 'brand_aware',
    senderName: 'Globetrotter',
    replyTo: 'help@globetrotter.example',
  });
  expect(sent?.attribution).toBeTruthy();
  expect(sent?.text).toContain(sent?.attribution ?? '-');

  // The traveller opens the email's link in another tab (the sandbox's hosted installation page).
  const mail = await page.context().newPage();
  await mail.goto(sent?.deliveryUrl ?? 'about:blank');
  await expect(mail.getByRole('heading', { name: 'Install your eSIM' })).toBeVisible();
  await mail.close();
});
