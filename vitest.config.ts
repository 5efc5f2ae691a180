/** The root test runner: every package's vitest project in one run with one summary line. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'examples/partner-quickstart',
      'reliability',
      { test: { name: 'scripts', include: ['scripts/*.test.mjs'] } },
      // The browser suite's own support code (Playwright runs only e2e/tests).
      { test: { name: 'e2e-support', include: ['e2e/support/*.test.ts'] } },
    ],
  },
});
