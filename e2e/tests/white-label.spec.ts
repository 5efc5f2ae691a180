/**
 * White label in a real Chromium: a widget selling through the sandbox's retail-brand account (Harbour Mobile)
 * whose config sets no terms or privacy link shows the retail brand's own legal pages — in the footer and at
 * checkout, next to the terms the traveller accepts.
 */
import { expect, test } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

const TERMS = 'https://harbour-mobile.example/legal/terms';
const PRIVACY = 'https://harbour-mobile.example/legal/privacy';

test('the retail brand’s terms and privacy pages are the widget’s legal links', async ({ page, stack }) => {
  await page.goto(`${stack.pages}/embed.html?widget=${TEST_WIDGETS.whiteLabel}&locale=en`);
  const widget = new WidgetFlow(page);
  await widget.ready();
  const footer = widget.root.locator('[part~="footer"]');
  await expect(footer.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', TERMS);
  await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', PRIVACY);

  await widget.chooseDestination('France', 'France');
  await widget.choosePlan();
  const hrefs = await widget.root
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  expect(hrefs.filter((href) => href === TERMS).length).toBeGreaterThanOrEqual(2);
  expect(hrefs).toContain(PRIVACY);
});
