/**
 * Money and sales in the partner console, in a real Chromium (issue #39): after a purchase on partner A's widget,
 * the sales chart's table shows what the BFF's counters hold for today, the funnel counts the purchase's steps,
 * and the CSV of the day lists the sale.
 */
import { consoleCall, saleOf, signIn } from '../support/console-page';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';

test('the charts show the counters after a purchase, and the day’s CSV lists it', async ({
  page,
  stack,
  expectHttpErrors,
}) => {
  expectHttpErrors(401);
  const checkoutId = await saleOf(stack, TEST_WIDGETS.console, `money.${Date.now()}@example.com`);
  await signIn(page, stack, 'support');
  await page.getByRole('link', { name: 'Money & sales' }).click();
  await expect(page.getByRole('heading', { name: 'Money & sales' })).toBeVisible();

  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const period = `from=${today}&to=${tomorrow}`;
  // What the counters hold (the API the page reads), before and after the page reads them: other tests sell on
  // the same widget meanwhile, so the page shows a figure between the two.
  const counters = async () => {
    const sales = (await consoleCall(page, 'GET', `/charts/sales?${period}&widgetId=${TEST_WIDGETS.console}`))
      .body.data as { days: { day: string; count: number }[] };
    const funnel = (await consoleCall(page, 'GET', `/charts/funnel?${period}`)).body.data as {
      days: { steps: Record<string, number> }[];
    };
    return {
      sold: sales.days.find((day) => day.day === today)?.count ?? 0,
      paid: funnel.days.reduce((total, day) => total + (day.steps.paid ?? 0), 0),
    };
  };
  const before = await counters();
  expect(before.sold).toBeGreaterThanOrEqual(1);
  expect(before.paid).toBeGreaterThanOrEqual(1);

  await page.getByLabel('From').fill(today);
  await page.getByLabel('To').fill(tomorrow);
  await page.getByRole('button', { name: 'Show' }).click();
  const salesTable = page.locator('table[data-chart="sales"]');
  const row = salesTable.getByRole('row').filter({ hasText: TEST_WIDGETS.console });
  const soldShown = row.getByRole('cell').nth(1);
  const paidShown = page.locator('table[data-chart="funnel"] [data-step="paid"] td');
  await expect.poll(async () => Number(await soldShown.textContent())).toBeGreaterThanOrEqual(before.sold);
  await expect.poll(async () => Number(await paidShown.textContent())).toBeGreaterThanOrEqual(before.paid);
  const after = await counters();
  expect(Number(await soldShown.textContent())).toBeLessThanOrEqual(after.sold);
  expect(Number(await paidShown.textContent())).toBeLessThanOrEqual(after.paid);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the period’s sales (CSV)' }).click();
  const csv = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of csv) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString('utf8')).toContain(checkoutId);
});
