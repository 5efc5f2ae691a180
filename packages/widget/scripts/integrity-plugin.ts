/**
 * @module
 * Publishes the script-tag build's Subresource Integrity: after Vite writes the build, `integrity.json` beside
 * `widget.js` names the widget's version and the `sha384-…` of `widget.js` and of every chunk, hashed from the
 * files as written. A partner pins `/widget@<version>/widget.js` and its chunks with these (README: "Pinning a
 * version"); the BFF reads the version from it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WidgetIntegrity } from '@esim-embed/shared';
import type { Plugin } from 'vite';

/**
 * `WIDGET_INTEGRITY_FILE` of `@esim-embed/shared`, whose schema describes the file: only its type is imported,
 * as Vite loads this config with Node, which does not run the shared package's TypeScript.
 */
const INTEGRITY_FILE = 'integrity.json';

/** The `integrity` attribute value of some bytes (SHA-384, as browsers check it). */
export function subresourceIntegrity(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** The Vite plugin that writes `integrity.json` for the build of `version`. */
export function integrityPlugin(version: string): Plugin {
  return {
    name: 'esim-widget:integrity',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir;
      if (dir === undefined) throw new Error('esim-widget:integrity needs an output directory');
      const scripts = Object.keys(bundle)
        .filter((name) => name.endsWith('.js'))
        .sort();
      const files = Object.fromEntries(
        scripts.map((name) => [name, subresourceIntegrity(readFileSync(join(dir, name)))]),
      );
      const integrity: WidgetIntegrity = { version, files };
      writeFileSync(join(dir, INTEGRITY_FILE), `${JSON.stringify(integrity, null, 2)}\n`);
    },
  };
}
