/**
 * @module
 * The widget's two Vite library builds. `vite build` makes the script-tag module (`dist/widget.js`: a small
 * loader that defines `<esim-widget>`, with everything else in lazily loaded chunks beside it, all
 * dependencies bundled; `integrity.json`: its version and every script's SRI hash). `vite build --mode lib`
 * makes the npm library (`dist/lib/`: ESM entries `index.js`, `auto-define.js`, `react.js` and `vue.js`; preact
 * and qrcode stay dependencies, react and vue optional peer dependencies, the private shared package is bundled in).
 * Either may run alone, in either order: the script-tag build empties `dist/` but for `lib/`, the library build
 * only `dist/lib/`.
 */
import preact from '@preact/preset-vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { defineConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };
import { adoptedStylesPlugin } from './scripts/adopted-styles-plugin.ts';
import { integrityPlugin } from './scripts/integrity-plugin.ts';
import { keepOtherBuildsPlugin } from './scripts/keep-other-builds-plugin.ts';
import { parallelImportsPlugin } from './scripts/parallel-imports-plugin.ts';

/** Where the npm library build writes, inside the script-tag build's `dist/`. */
export const LIBRARY_OUT_DIR = 'dist/lib';

/**
 * The first screen's chunk: the app's entry and, with them, every module it imports (a group takes its modules'
 * dependencies along). The message tables' shared helpers (`messages.ts`, `plural-message.ts`) join it, so a
 * language's table is one request.
 */
const FIRST_SCREEN_CHUNK = {
  name: 'widget-app',
  test: /src[\\/](app[\\/]widget-app\.tsx|i18n[\\/](messages|plural-message)\.ts)$/,
};

export default defineConfig(({ mode }) => {
  const library = mode === 'lib';
  const entry: Record<string, string> = library
    ? {
        index: 'src/index.ts',
        'auto-define': 'src/auto-define.ts',
        react: 'src/react.ts',
        vue: 'src/vue.ts',
      }
    : { widget: 'src/widget.ts' };
  return {
    define: { __ESIM_WIDGET_VERSION__: JSON.stringify(packageJson.version) },
    plugins: [
      // No `react` → `preact/compat` alias: the `react` entry is for React itself, which stays external.
      preact({ prefreshEnabled: false, devToolsEnabled: false, reactAliasesEnabled: false }),
      vanillaExtractPlugin(),
      adoptedStylesPlugin(),
      // The script-tag build publishes its Subresource Integrity (`integrity.json`) beside `widget.js`.
      ...(library ? [] : [integrityPlugin(packageJson.version)]),
      // A lazy chunk and its own imports are fetched together: one round trip, not one per level.
      ...(library ? [] : [parallelImportsPlugin()]),
      // `dist/` emptied but for the library build's `dist/lib/` (Vite's emptyOutDir would delete it too).
      ...(library ? [] : [keepOtherBuildsPlugin(['lib'])]),
    ],
    build: {
      target: 'es2022',
      outDir: library ? LIBRARY_OUT_DIR : 'dist',
      emptyOutDir: library,
      // One stylesheet for the whole widget: it is small, and adoptedStylesPlugin turns it into a string.
      cssCodeSplit: false,
      manifest: !library,
      minify: true,
      reportCompressedSize: false,
      lib: {
        entry,
        formats: ['es'],
      },
      rolldownOptions: {
        // Imported constants are written where they are used: a route's method and path (`apiRoutes.…`) become
        // string literals at the call, not one variable each.
        optimization: { inlineConst: { mode: 'all', pass: 1 } },
        external: library ? [/^preact(\/|$)/, /^qrcode(\/|$)/, /^react(\/|$)/, /^vue(\/|$)/] : [],
        output: {
          entryFileNames: '[name].js',
          chunkFileNames: library ? 'chunks/[name]-[hash].js' : 'widget-chunks/[name]-[hash].js',
          // Library mode keeps whitespace in ES output for the consumer's tree-shaking; the script-tag build
          // is loaded as is by browsers, so it is minified fully, without the `@__PURE__` annotations that
          // only a bundler reads (one per JSX element).
          minify: !library,
          // The first screen is one file: the app and everything it imports (Preact, the shell, the destinations),
          // not the app plus the common chunks it shares with the lazy steps — fewer bytes (one gzip context,
          // no import lists between them) and one request.
          ...(library ? {} : { codeSplitting: { groups: [FIRST_SCREEN_CHUNK] } }),
          ...(library ? {} : { comments: { legal: true, annotation: false, jsdoc: false } }),
        },
      },
    },
  };
});
