/**
 * @module
 * `@esim-embed/widget/testing`: what the suites outside the package (e2e, bench) check the widget against —
 * the built script-tag folder, the byte budgets and their measurement, and the message tables. A workspace-only
 * export: not in the published files nor, through `publishConfig.exports`, in the published manifest (the
 * package is packed with pnpm only: `scripts/require-pnpm.mjs`), and neither build reaches it.
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
