/**
 * How many interactions a traveller needs from the first screen to a scannable QR code, on a 360 px phone, in
 * both consent modes: every tap and every typed search counts one, nothing else (no scroll, no wait). With
 * consent in the buy button's words: 3 from a popular destination, 4 from a typed one, 2 on a page whose
 * widget has a `country` attribute; with the checkbox, one more each (the tick).
 */
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { EN, WidgetFlow } from '../support/widget-flow';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** A traveller's fingers, counting what they do. */
class CountingHands {
  count = 0;

  async tap(target: Locator): Promise<void> {
    await target.tap();
    this.count += 1;
  }

  async type(target: Locator, text: string): Promise<void> {
    await target.fill(text);
    this.count += 1;
  }
}

type Start = 'popular' | 'typed' | 'country';

/** Buys from the first screen (or the country's plans) to the QR code; returns the interactions it took. */
async function purchase(page: Page, pagesUrl: string, widgetId: string, start: Start): Promise<number> {
  await page.goto(
    start === 'country'
      ? `${pagesUrl}/country.html?widget=${widgetId}&country=PT`
      : `${pagesUrl}/embed.html?widget=${widgetId}`,
  );
  const widget = new WidgetFlow(page);
  const hands = new CountingHands();
  if (start === 'country') {
    await expect(widget.root.getByRole('heading', { name: /Portugal/ })).toBeVisible({ timeout: 20_000 });
  } else {
    await widget.ready();
    if (start === 'popular') {
      const popular = widget.root.locator('h3', { hasText: 'Popular destinations' });
      await hands.tap(popular.locator('+ ul [part~="destination"]').first());
    } else {
      await hands.type(widget.root.getByLabel(EN.searchLabel), 'Portugal');
      await hands.tap(widget.root.locator('[part~="destination"]', { hasText: 'Portugal' }).first());
    }
  }
  await hands.tap(widget.root.locator('[part~="plan"]').first().getByRole('button'));
  const buy = widget.root.getByRole('button', { name: EN.buy });
  await expect(buy).toBeEnabled();
  const checkbox = widget.root.getByRole('checkbox', { name: EN.terms });
  if ((await checkbox.count()) > 0) await hands.tap(checkbox);
  else {
    // No box: the button's own words are the consent, read with it by a screen reader, the words linked.
    await expect(buy).toHaveAccessibleDescription(
      'By buying you accept the terms and privacy policy of Globetrotter.',
    );
    await expect(widget.root.getByRole('link', { name: 'terms', exact: true })).toHaveAttribute(
      'href',
      'https://globetrotter.example/terms',
    );
    await expectNoSeriousA11yViolations(page, 'checkout with consent in the button');
  }
  await hands.tap(buy);
  await widget.installed();
  return hands.count;
}

const EXPECTED: Record<'button' | 'checkbox', Record<Start, number>> = {
  button: { popular: 3, typed: 4, country: 2 },
  checkbox: { popular: 4, typed: 5, country: 3 },
};

for (const [consent, widgetId] of [
  ['button', TEST_WIDGETS.consentButton],
  ['checkbox', TEST_WIDGETS.direct],
] as const) {
  for (const start of ['popular', 'typed', 'country'] as const) {
    test(`consent by ${consent}: ${EXPECTED[consent][start]} interactions from a ${start} destination to the QR`, async ({
      page,
      stack,
      widgetEvents,
    }) => {
      expect(await purchase(page, stack.pages, widgetId, start)).toBe(EXPECTED[consent][start]);
      const checkouts = (await widgetEvents()).filter((event) => event.type === 'esim-checkout');
      expect(checkouts).toHaveLength(1);
    });
  }
}
