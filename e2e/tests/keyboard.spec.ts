/**
 * A traveller who uses only the keyboard buys an eSIM: Tab and Enter/Space all the way to the QR code,
 * with focus landing on each new step's heading.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

/** What has focus, looking through shadow roots. */
function focused(page: Page) {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      type: element?.getAttribute('type') ?? '',
      text: (element?.getAttribute('aria-label') || element?.textContent || '').trim(),
      part: element?.getAttribute('part') ?? '',
    };
  });
}

/** Presses Tab until the focused element matches, failing after `limit` presses. */
async function tabTo(
  page: Page,
  matches: (target: Awaited<ReturnType<typeof focused>>) => boolean,
  limit = 40,
) {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(
    `no focusable element matched after ${limit} Tab presses; focus is on ${JSON.stringify(await focused(page))}`,
  );
}

test('keyboard only: search, plan, terms, buy, QR', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.direct}`);
  const widget = new WidgetFlow(page);
  await widget.ready();

  await tabTo(page, (target) => target.tag === 'input' && target.type === 'search');
  await page.keyboard.type('Germany');
  // The results follow the typing: Tab once they are there (a busy machine draws them after a few presses).
  await expect(widget.root.locator('[part~="destination"]', { hasText: 'Germany' }).first()).toBeVisible();
  await tabTo(page, (target) => target.part.includes('destination') && target.text.includes('Germany'));
  await page.keyboard.press('Enter');

  await expect(widget.root.getByRole('heading', { name: /Germany/ })).toBeFocused();
  await tabTo(page, (target) => target.text.startsWith('Choose '));
  await page.keyboard.press('Enter');

  await expect(widget.root.getByRole('heading', { name: 'Checkout' })).toBeFocused();
  await tabTo(page, (target) => target.type === 'checkbox');
  await page.keyboard.press('Space');
  await expect(widget.root.getByRole('checkbox', { name: EN.terms })).toBeChecked();
  await tabTo(page, (target) => target.text.startsWith('Buy for '));
  await page.keyboard.press('Enter');

  await widget.installed();
  // The install screen is reachable by keyboard too: its copy buttons take focus.
  await tabTo(page, (target) => target.tag === 'button' && /Copy/.test(target.text));
});
