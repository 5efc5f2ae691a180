import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reliability',
    include: ['src/**/*.test.ts'],
    // Real servers, child processes, a real redis-server and a timed soak: slower than unit tests.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // One suite at a time: the soak measures memory and the chaos suite times out on purpose, so neither
    // may share the CPU with another suite's load.
    fileParallelism: false,
    globalSetup: ['./src/harness/figures-summary.ts'],
  },
});
