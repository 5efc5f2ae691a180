/**
 * @module
 * `@esim-embed/widget-testing`: what the suites outside the package (e2e, bench) check the widget against —
 * the built script-tag folder, the byte budgets and their measurement, and the message tables. In no export of
 * the package: the suites reach it by that name through `paths` in their tsconfig.json (read by tsc,
 * Playwright's loader and tsx), so the manifest npm and pnpm pack names only published files; neither build
 * reaches it, and `scripts/dependency-rules.mjs` lets only test code import it.
 */
import { fileURLToPath } from 'node:url';

/** The script-tag build (`dist/`, after `vite build`): `widget.js` and `widget-chunks/`. */
export const WIDGET_DIST = fileURLToPath(new URL('../dist/', import.meta.url));

export { BUDGETS, measureBudgets } from '../scripts/check-size.mjs';
export { de } from '../src/i18n/de';
export { en } from '../src/i18n/en';
export { es } from '../src/i18n/es';
export { fr } from '../src/i18n/fr';
export { ru } from '../src/i18n/ru';
