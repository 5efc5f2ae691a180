/** The widget's vitest project: component tests in happy-dom, the size budget test in Node. */
import preact from '@preact/preset-vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { defineProject } from 'vitest/config';
import packageJson from './package.json' with { type: 'json' };
import { adoptedStylesPlugin } from './scripts/adopted-styles-plugin.ts';

export default defineProject({
  define: { __ESIM_WIDGET_VERSION__: JSON.stringify(packageJson.version) },
  plugins: [
    // React itself, not `preact/compat`, for the tests of the React component.
    preact({ prefreshEnabled: false, devToolsEnabled: false, reactAliasesEnabled: false }),
    vanillaExtractPlugin(),
    adoptedStylesPlugin(),
  ],
  test: {
    name: 'widget',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    setupFiles: ['testing/setup.ts'],
    testTimeout: 20_000,
  },
});
