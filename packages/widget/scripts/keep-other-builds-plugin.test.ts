// @vitest-environment node
/**
 * The two widget builds share `dist/`: a plain `vite build` (the script-tag build) must leave the npm library
 * build's `dist/lib/` in place (the e2e stack and the examples import it), while still clearing its own output.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import viteConfig from '../vite.config';
import { emptyDirectoryExcept } from './keep-other-builds-plugin';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function configFor(mode: string): UserConfig {
  if (typeof viteConfig !== 'function') throw new Error('the widget config is a function of the mode');
  return viteConfig({ mode, command: 'build', isSsrBuild: false, isPreview: false }) as UserConfig;
}

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the widget builds sharing dist/', () => {
  it('the script-tag build never lets Vite empty dist/, and keeps the library build folder', () => {
    const script = configFor('production');
    const library = configFor('lib');
    const scriptOut = resolve(packageRoot, script.build?.outDir ?? '');
    const libraryOut = resolve(packageRoot, library.build?.outDir ?? '');
    const libraryInsideScript = relative(scriptOut, libraryOut);
    expect(libraryInsideScript.startsWith('..')).toBe(false);
    // Vite's emptyOutDir would delete dist/lib with the rest.
    expect(script.build?.emptyOutDir).toBe(false);
    const names = (script.plugins as Plugin[]).flat().map((plugin) => plugin?.name);
    expect(names).toContain('esim-widget:keep-other-builds');
    // The library build only empties its own folder.
    expect(library.build?.emptyOutDir).toBe(true);
  });

  it('empties the output directory but for the folders of the other builds', () => {
    const dist = mkdtempSync(join(tmpdir(), 'widget-dist-'));
    temporary.push(dist);
    mkdirSync(join(dist, 'lib'));
    writeFileSync(join(dist, 'lib', 'index.js'), 'export {};\n');
    mkdirSync(join(dist, 'widget-chunks'));
    writeFileSync(join(dist, 'widget-chunks', 'old-chunk.js'), '');
    writeFileSync(join(dist, 'widget.js'), '');
    writeFileSync(join(dist, 'integrity.json'), '{}');

    emptyDirectoryExcept(dist, ['lib']);

    expect(existsSync(join(dist, 'lib', 'index.js'))).toBe(true);
    expect(existsSync(join(dist, 'widget.js'))).toBe(false);
    expect(existsSync(join(dist, 'widget-chunks'))).toBe(false);
    expect(existsSync(join(dist, 'integrity.json'))).toBe(false);
    // A directory not there yet is no error (a first build).
    expect(() => emptyDirectoryExcept(join(dist, 'missing'), ['lib'])).not.toThrow();
  });
});
