#!/usr/bin/env node
/**
 * @module
 * Bundles the published package's three entries (`index`, `express`, `hono`) into `dist/` with esbuild: ESM for
 * Node 20, the private `@esim-embed/shared` inlined, zod left a dependency, express and hono left to the app. The
 * `build` script then declares the types (tsc, twice: the SDK and the shared schemas it exports) and runs
 * `finish-types.mjs`.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts', 'src/express.ts', 'src/hono.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  external: ['zod', 'express', 'hono'],
  logLevel: 'warning',
});
