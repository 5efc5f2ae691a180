/**
 * @module
 * `@esim-embed/console/testing`: what the suites outside the package (bench, e2e) check the console against —
 * its built folder and its first-load budget with the measurement `pnpm build` runs.
 */
import { fileURLToPath } from 'node:url';

/** The console's build (`dist/`, after `vite build`), which the BFF serves at `/console/`. */
export const CONSOLE_DIST = fileURLToPath(new URL('../dist/', import.meta.url));

export { FIRST_LOAD_BUDGET, measureFirstLoad } from '../scripts/check-size.mjs';
