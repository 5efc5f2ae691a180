/** The root test runner: every package's vitest project in one run with one summary line. */
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The tests mostly wait on real servers and child processes: two files at a time even on two cores (vitest's
    // default leaves one core free, which on two cores runs every file one after another).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      'packages/*',
      'examples/partner-quickstart',
      'reliability',
      { test: { name: 'scripts', include: ['scripts/*.test.mjs'] } },
      // The bench's report (its figures against the week before's); the bench itself is `pnpm bench`, not a test.
      { test: { name: 'bench', include: ['bench/src/*.test.ts'] } },
      // The browser suite's own support code (Playwright runs only e2e/tests).
      { test: { name: 'e2e-support', include: ['e2e/support/*.test.ts'] } },
    ],
  },
});
