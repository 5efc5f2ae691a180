import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'partner',
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The SDK's tests run against the real sandbox and BFF, and start Express and Hono apps, on free ports.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
