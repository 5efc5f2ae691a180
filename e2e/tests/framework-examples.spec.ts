/**
 * The framework recipes run: each app of `examples/` (React 18 with `<EsimWidget>`, React 19 with the element's
 * own props, Vue 3 with the element typed for its templates, a plain HTML page with the BFF's script tag), built
 * by the global setup as a partner builds it and served on the partner origin, sells an eSIM in Chromium, and the
 * app's own `esim-purchase` handler shows the order on the page.
 */

import { FRAMEWORK_EXAMPLES } from '../support/examples';
import { expect, test, waitForWidgetEvent } from '../support/fixtures';
import { TEST_WIDGETS } from '../support/test-config';
import { WidgetFlow } from '../support/widget-flow';

const EXAMPLES = [...FRAMEWORK_EXAMPLES, 'html'] as const;

for (const example of EXAMPLES) {
  test(`examples/${example}: a purchase reaches the app's esim-purchase handler`, async ({ page, stack }) => {
    const query = new URLSearchParams({ widget: TEST_WIDGETS.direct, api: stack.bff });
    await page.goto(`${stack.pages}/examples/${example}/${example === 'html' ? '' : `?${query}`}`);
    const shown = page.locator('#purchase');
    await expect(shown).toHaveText('No purchase yet.');

    await new WidgetFlow(page).purchase();

    const purchase = await waitForWidgetEvent(page, 'esim-purchase');
    const checkoutId = String(purchase.detail.checkoutId);
    await expect(shown).toHaveText(new RegExp(`^Thank you! Order ${checkoutId}, \\$\\d+\\.\\d\\d\\.$`));
  });
}
