/**
 * @module
 * The console's build: a single-page app served by the BFF at `/console/` (`dist/`: `index.html`, the entry
 * script, its stylesheet and the lazily loaded pages and message tables). Files only — no inline script, style
 * or data URI — so the page runs under a CSP of `script-src 'self'; style-src 'self'`.
 */
import preact from '@preact/preset-vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { defineConfig } from 'vite';
import { consoleContractDefines } from './scripts/console-contract-defines.ts';

export default defineConfig(async () => ({
  // Where the BFF serves the build: every asset's address starts there.
  base: '/console/',
  define: await consoleContractDefines(),
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false }), vanillaExtractPlugin()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // A data: URI would need `img-src data:` or `font-src data:` in the CSP: every asset stays a file.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // Vite's preload helper for browsers without `modulepreload` is an inline-free module, but its polyfill is
    // not needed by the browsers the console supports.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod's builders make schemas and nothing else: a schema the page does not use is dropped with them.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
}));
