#!/usr/bin/env node
/**
 * @module
 * Finishes the npm package's declarations after `tsc -p tsconfig.lib.json`: keeps only the `.d.ts` files
 * the public entries reach (tsc also declares every internal module), gives their relative imports the
 * `.js` extension that `moduleResolution: node16` needs, and fails if a public declaration still refers to
 * the private `@esim-embed/shared` package or to zod (the published package depends on neither).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const libDir = resolve(fileURLToPath(new URL('..', import.meta.url)), 'dist/lib');
const ENTRIES = ['index.d.ts', 'auto-define.d.ts', 'react.d.ts', 'vue.d.ts', 'widget.d.ts'];
const RELATIVE = /(from\s+|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;

function declarationOf(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''));
  if (existsSync(`${base}.d.ts`))
    return { file: `${base}.d.ts`, specifier: `${specifier.replace(/\.js$/, '')}.js` };
  if (existsSync(join(base, 'index.d.ts')))
    return { file: join(base, 'index.d.ts'), specifier: `${specifier}/index.js` };
  throw new Error(`${relative(libDir, fromFile)} imports ${specifier}, which has no declaration`);
}

const kept = new Set();
const pending = ENTRIES.map((entry) => join(libDir, entry));
while (pending.length > 0) {
  const file = pending.pop();
  if (kept.has(file)) continue;
  kept.add(file);
  const source = readFileSync(file, 'utf8');
  if (/['"](@esim-embed\/shared|zod)(\/[^'"]*)?['"]/.test(source)) {
    throw new Error(`${relative(libDir, file)} refers to @esim-embed/shared or zod; the public API must not`);
  }
  const rewritten = source.replace(RELATIVE, (_whole, keyword, quote, specifier) => {
    const target = declarationOf(file, specifier);
    pending.push(target.file);
    return `${keyword}${quote}${target.specifier}${quote}`;
  });
  writeFileSync(file, rewritten);
}

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (path.endsWith('.d.ts') && !kept.has(path)) {
      rmSync(path);
    }
  }
}
walk(libDir);
console.log(
  `declarations: ${[...kept]
    .map((file) => relative(libDir, file))
    .sort()
    .join(', ')}`,
);
