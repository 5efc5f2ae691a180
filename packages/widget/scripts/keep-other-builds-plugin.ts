/**
 * @module
 * Lets the two builds share `dist/` without clobbering each other. The script-tag build writes into `dist/` and
 * the npm library build into `dist/lib/`: Vite's own `emptyOutDir` would have `vite build` delete `dist/lib/` too
 * (the package's entries, which the e2e stack and the examples import), so the script-tag build turns it off and
 * this plugin empties `dist/` itself, before the build, leaving the folders of the other builds alone.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** Empty `dir` (when it exists) but for the entries named in `keep`. */
export function emptyDirectoryExcept(dir: string, keep: readonly string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!keep.includes(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** The Vite plugin: the output directory emptied before the build, but for `keep` (the other builds' folders). */
export function keepOtherBuildsPlugin(keep: readonly string[]): Plugin {
  let outDir = '';
  return {
    name: 'esim-widget:keep-other-builds',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      emptyDirectoryExcept(outDir, keep);
    },
  };
}
