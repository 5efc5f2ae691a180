/**
 * @module
 * Console weight: the partner console's first load (its page, entry script, stylesheets, largest message table
 * and the sales search it lands on), gzip -9, measured by the console's own `scripts/check-size.mjs` — the same
 * code its build runs, so the build's budget and the report cannot disagree.
 */
import { CONSOLE_DIST, FIRST_LOAD_BUDGET, measureFirstLoad } from '@esim-embed/console/testing';
import { check, fmt, type Section } from './report';

/** The console-weight section. */
export function consoleWeightSection(distDir = CONSOLE_DIST): Section {
  const { bytes, files } = measureFirstLoad(distDir);
  return {
    title: 'Console weight',
    command: 'npx -y pnpm@12.21.0 bench --only weight',
    lines: [
      'The partner console’s build (`packages/console/dist`, built by the harness first): what a staff member',
      `downloads before the sales search shows, gzip -9: ${files.map((file) => `\`${file}\``).join(', ')}.`,
      '',
    ],
    checks: [
      check('weight.console-first-load', 'console first load (gzip)', bytes, '<=', FIRST_LOAD_BUDGET, fmt.kb),
    ],
  };
}
