#!/usr/bin/env node
/**
 * @module
 * Makes the package's declarations self-contained after tsc (`tsconfig.build.json` declares the SDK into `dist/`,
 * `tsconfig.shared-types.json` the shared schemas into `dist/shared/`): an import of a private workspace package is pointed
 * at its declarations copied into `dist/` (`aliases`), every relative import gets the `.js` extension that
 * `moduleResolution: node16` needs, and only the `.d.ts` files the public entries reach are kept. Fails if a kept
 * declaration still names a workspace package.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPECIFIER = /(from\s+|import\s*\(\s*|import\s+)(['"])([^'"]+)\2/g;

/** The declaration file a relative specifier names, and the specifier with its `.js` extension. */
function declarationOf(distDir, fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''));
  if (existsSync(`${base}.d.ts`))
    return { file: `${base}.d.ts`, specifier: `${specifier.replace(/\.js$/, '')}.js` };
  if (existsSync(join(base, 'index.d.ts')))
    return { file: join(base, 'index.d.ts'), specifier: `${specifier}/index.js` };
  throw new Error(`${relative(distDir, fromFile)} imports ${specifier}, which has no declaration`);
}

/** Rewrites and prunes the declarations under `distDir` reached from `entries`. */
export function finishTypes(distDir, entries, aliases) {
  const kept = new Set();
  const pending = entries.map((entry) => join(distDir, entry));
  while (pending.length > 0) {
    const file = pending.pop();
    if (kept.has(file)) continue;
    kept.add(file);
    const rewritten = readFileSync(file, 'utf8').replace(SPECIFIER, (whole, keyword, quote, specifier) => {
      let target = specifier;
      if (aliases[specifier] !== undefined) {
        const path = relative(dirname(file), join(distDir, aliases[specifier])).replace(/\.d\.ts$/, '');
        target = path.startsWith('.') ? path : `./${path}`;
      } else if (!specifier.startsWith('.')) {
        if (specifier.startsWith('@esim-embed/'))
          throw new Error(`${relative(distDir, file)} refers to the private ${specifier}`);
        return whole;
      }
      const found = declarationOf(distDir, file, target);
      pending.push(found.file);
      return `${keyword}${quote}${found.specifier}${quote}`;
    });
    writeFileSync(file, rewritten);
  }
  const prune = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        prune(path);
        if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      } else if (path.endsWith('.d.ts') && !kept.has(path)) rmSync(path);
    }
  };
  prune(distDir);
  return [...kept].map((file) => relative(distDir, file)).sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const distDir = fileURLToPath(new URL('../dist', import.meta.url));
  const kept = finishTypes(distDir, ['index.d.ts', 'express.d.ts', 'hono.d.ts'], {
    '@esim-embed/shared': 'shared/index.d.ts',
  });
  console.log(`declarations: ${kept.length} files`);
}
