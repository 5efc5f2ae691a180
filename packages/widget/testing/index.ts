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

import { de as deMain } from '../src/i18n/de';
import { en as enMain } from '../src/i18n/en';
import { es as esMain } from '../src/i18n/es';
import { fr as frMain } from '../src/i18n/fr';
import { purchaseDe } from '../src/i18n/purchase/purchase-de';
import { purchaseEn } from '../src/i18n/purchase/purchase-en';
import { purchaseEs } from '../src/i18n/purchase/purchase-es';
import { purchaseFr } from '../src/i18n/purchase/purchase-fr';
import { purchaseRu } from '../src/i18n/purchase/purchase-ru';
import { ru as ruMain } from '../src/i18n/ru';

export { BUDGETS, measureBudgets } from '../scripts/check-size.mjs';

// Each language's words up to the installation: the first screen's table and the purchase's (loaded apart).
export const en = { ...enMain, ...purchaseEn };
export const ru = { ...ruMain, ...purchaseRu };
export const es = { ...esMain, ...purchaseEs };
export const de = { ...deMain, ...purchaseDe };
export const fr = { ...frMain, ...purchaseFr };
