/**
 * @module
 * The accessibility gate of every step: an axe scan of the page (the widget's open shadow root included)
 * that fails on any serious or critical violation, naming the rule, the step and the offending nodes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Scans the page as it is now; `step` names the screen in the failure message. */
export async function expectNoSeriousA11yViolations(page: Page, step: string): Promise<void> {
  const scan = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  // A page without frames is scanned whole by one `axe.run` in it; the frame-by-frame way (the default) also
  // opens a blank page per scan to merge the frames' results, which a page of one document does not need.
  const results = await (page.frames().length === 1 ? scan.setLegacyMode() : scan).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' > '))
          .join('; ')}`,
    );
  expect(serious, `serious or critical accessibility violations on the ${step} step`).toEqual([]);
}
