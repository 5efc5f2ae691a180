import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'bff',
    include: ['src/**/*.test.ts'],
    // The BFF's tests start real servers (the sandbox, the BFF, redis-server) on free ports.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
