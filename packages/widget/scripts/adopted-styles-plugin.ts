/**
 * @module
 * Brings the CSS that vanilla-extract extracts at build time into the shadow root. vanilla-extract writes
 * a stylesheet file, which a page would have to link and which cannot reach inside a shadow root. This plugin
 * serves `virtual:esim-widget-styles` (a module whose default export is the widget's CSS as a string): at
 * build time the string is a placeholder that is replaced with the extracted stylesheet once it exists, and
 * the stylesheet file itself is dropped from the output. In dev and tests the string is empty (vanilla-extract
 * injects its styles at run time there). The app adopts the string with a constructable stylesheet, so no
 * `<style>` element, no `innerHTML`: it works under a strict CSP and Trusted Types.
 */
import type { Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:esim-widget-styles';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const PLACEHOLDER = '__ESIM_WIDGET_EXTRACTED_CSS__';
const QUOTED_PLACEHOLDER = new RegExp(`(["'\`])${PLACEHOLDER}\\1`, 'g');

/** The Vite plugin that inlines the extracted CSS into the chunk that adopts it. */
export function adoptedStylesPlugin(): Plugin {
  let building = false;
  return {
    name: 'esim-widget:adopted-styles',
    enforce: 'post',
    configResolved(config) {
      building = config.command === 'build';
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      return `export default ${JSON.stringify(building ? PLACEHOLDER : '')};`;
    },
    generateBundle(_options, bundle) {
      let css = '';
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'asset' && fileName.endsWith('.css')) {
          css += String(output.source);
          delete bundle[fileName];
        }
      }
      let placed = false;
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk' && output.code.includes(PLACEHOLDER)) {
          // The minifier may quote the placeholder either way; a function replacer keeps `$` in CSS literal.
          output.code = output.code.replace(QUOTED_PLACEHOLDER, () => JSON.stringify(css.trim()));
          placed = true;
        }
      }
      if (!placed && css) {
        this.error(
          'The extracted CSS has no chunk to go into: import virtual:esim-widget-styles in the app.',
        );
      }
    },
  };
}
