/** The console's vitest project: its pages and pieces in happy-dom, the size budget on a build of its own. */
import preact from '@preact/preset-vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { defineProject } from 'vitest/config';
import { consoleContractDefines } from './scripts/console-contract-defines.ts';

export default defineProject(async () => ({
  define: await consoleContractDefines(),
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false }), vanillaExtractPlugin()],
  test: {
    name: 'console',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    setupFiles: ['testing/setup.ts'],
    testTimeout: 20_000,
  },
}));
