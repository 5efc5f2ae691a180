/**
 * The screenshots command (`pnpm screenshots` at the root): the browser suite's stack and Chromium, running
 * only the tour in `tours/`, which writes a picture of every step into `e2e/screenshots/` (git-ignored).
 */
import { defineConfig } from '@playwright/test';
import suite from './playwright.config';

export default defineConfig({
  ...suite,
  testDir: './tours',
  testMatch: '*.tour.ts',
});
