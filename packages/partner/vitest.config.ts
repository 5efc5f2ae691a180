/** The `partner` vitest project: the SDK against the real stack, plus the type tests (`*.test-d.ts`) checked by tsc. */
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'partner',
    include: ['src/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // The SDK's tests run against the real sandbox and BFF, and start Express and Hono apps, on free ports.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
