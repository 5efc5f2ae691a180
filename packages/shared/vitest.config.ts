/** The `shared` vitest project: schema and helper tests, plus the type tests (`*.test-d.ts`) checked by tsc. */
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared',
    include: ['src/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
