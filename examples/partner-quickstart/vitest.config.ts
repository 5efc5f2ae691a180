import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'partner-quickstart',
    include: ['*.test.ts'],
    // The quickstart runs as its own process against the real sandbox and BFF.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
