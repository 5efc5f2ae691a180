/**
 * On a phone, a partner whose prepaid balance cannot fund the chosen plan (the sandbox's Shoestring account:
 * $5.00): the BFF refuses the checkout before anyone pays, in both checkout modes. The host page never hears
 * `esim-checkout` (no payment form opens), and the traveller reads that the store cannot sell this plan and
 * that they were not charged, with a way to choose another plan.
 */
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

for (const widgetId of [TEST_WIDGETS.lowBalance, TEST_WIDGETS.lowBalanceConfirm]) {
  test(`${widgetId}: a plan the balance cannot cover is refused before payment, without esim-checkout`, async ({
    page,
    stack,
    expectHttpErrors,
    widgetEvents,
  }) => {
    expectHttpErrors(402);
    await page.goto(`${stack.pages}/embed.html?widget=${widgetId}`);
    const widget = new WidgetFlow(page);
    await widget.ready();
    // Listened on the element itself, as a partner's page would.
    await widget.root.evaluate((element) => {
      element.addEventListener('esim-checkout', () => {
        const page = window as unknown as { __checkoutsHeard?: number };
        page.__checkoutsHeard = (page.__checkoutsHeard ?? 0) + 1;
      });
    });
    await widget.chooseDestination('France', 'France');
    // Plans come cheapest first: the last one costs more than the partner's $5.00.
    const plans = widget.root.locator('[part~="plan"]');
    await expect(plans.first()).toBeVisible();
    await widget.choosePlan((await plans.count()) - 1);
    const refusal = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/v1/checkouts',
    );
    await widget.buy('traveller@example.com');
    // Refused by the BFF's funding check, before a checkout exists — not by the upstream at order time.
    const answer = await refusal;
    expect(answer.status()).toBe(402);
    expect((await answer.json()).error).toMatchObject({
      code: 'insufficient_balance',
      params: { stage: 'before_payment' },
    });

    const notice = widget.errorNotice();
    await expect(notice).toContainText(
      'This store cannot sell this plan right now. You have not been charged.',
    );
    await expect(notice).toHaveAttribute('data-code', 'insufficient_balance');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal scroll with the message').toBeLessThanOrEqual(0);
    expect(
      await page.evaluate(() => (window as unknown as { __checkoutsHeard?: number }).__checkoutsHeard),
    ).toBeUndefined();
    const events = await widgetEvents();
    expect(events.filter((event) => event.type === 'esim-checkout')).toEqual([]);
    expect(events.find((event) => event.type === 'esim-error')?.detail.code).toBe('insufficient_balance');

    await notice.getByRole('button', { name: 'Choose another plan' }).click();
    await expect(widget.root.getByRole('heading', { name: 'eSIM plans for France' })).toBeVisible();
    await expect(plans.first()).toBeVisible();
  });
}
