#!/usr/bin/env node
/**
 * @module
 * The console's byte budget, measured on its build (`dist/`, after `vite build`) with gzip -9: the first load —
 * the page, its entry script with everything it imports, its stylesheets, the largest message table and the
 * sales search (the page a staff member lands on) with what that imports. Prints the figure; exits 1 over budget.
 *
 * Usage: `node scripts/check-size.mjs [distDir]`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget in bytes, gzip (issue #39: the first load at most 60 KB). */
export const FIRST_LOAD_BUDGET = 60 * 1024;

const ENTRY = 'index.html';
const FIRST_PAGE = 'src/sales/sales-search-page.tsx';
const LOCALE_TABLE = /^src\/i18n\/[a-z]{2}\.ts$/;

/** The files a manifest entry loads before it runs: itself, its stylesheets and its static imports. */
function closure(manifest, key, into = new Set()) {
  const entry = manifest[key];
  if (!entry)
    throw new Error(`${key} is not in the build manifest; was the console built with \`vite build\`?`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** Measures the first load of a build in `distDir`: its bytes and its files. */
export function measureFirstLoad(distDir) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const gzipped = (file) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  const size = (files) => [...files].reduce((total, file) => total + gzipped(file), 0);
  const tables = Object.keys(manifest).filter((key) => LOCALE_TABLE.test(key));
  if (tables.length === 0) throw new Error('no message table in the build manifest');
  const largestTable = tables.map((table) => closure(manifest, table)).sort((a, b) => size(b) - size(a))[0];
  const files = new Set([
    ENTRY,
    ...closure(manifest, ENTRY),
    ...largestTable,
    ...closure(manifest, FIRST_PAGE),
  ]);
  files.delete(ENTRY);
  const bytes = size(files) + gzipped(ENTRY);
  return { bytes, files: [ENTRY, ...files] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const distDir = process.argv[2] ?? join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  const { bytes, files } = measureFirstLoad(distDir);
  const over = bytes > FIRST_LOAD_BUDGET;
  console.log(
    `console first load (${files.length} files) ${(bytes / 1024).toFixed(2)} KB gzip  (budget ${FIRST_LOAD_BUDGET / 1024} KB)  ${over ? 'OVER' : 'ok'}`,
  );
  if (over) {
    console.error('Size budget broken: the console first load');
    process.exit(1);
  }
}
