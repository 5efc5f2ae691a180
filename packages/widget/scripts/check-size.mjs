#!/usr/bin/env node
/**
 * @module
 * The widget's byte budgets, measured on the script-tag build (`dist/`, after `vite build`) with gzip -9:
 * the loader (`widget.js` and what it imports statically), the first screen (the loader, the app chunk it
 * loads and the largest message table, with everything they import: what a traveller downloads before the
 * destinations show), the lazy install step with the QR encoder, and the lazy device check with its largest
 * message table (each beyond what the first screen already loaded; a lazy part missing from the manifest as a
 * chunk of its own is an error). Prints the figures; exits 1 on a breach.
 *
 * Usage: `node scripts/check-size.mjs [distDir]`
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Budgets in bytes, gzip. */
export const BUDGETS = {
  loader: 3 * 1024,
  firstScreen: 20 * 1024,
  install: 20 * 1024,
  deviceCheck: 3 * 1024,
};

const ENTRY = 'src/widget.ts';
const INSTALL = 'src/install/install-step.tsx';
const DEVICE_CHECK = 'src/device-check/device-check.tsx';
/** A locale's message table in the build manifest (`src/i18n/en.ts` …): every language the build has. */
const LOCALE_TABLE = /^src\/i18n\/[a-z]{2}\.ts$/;
/** A locale's device-check messages (`src/i18n/device-check/device-check-en.ts` …), loaded with the device check. */
const DEVICE_CHECK_TABLE = /^src\/i18n\/device-check\/device-check-[a-z]{2}\.ts$/;

/** The files a manifest entry loads before it runs: itself and its static imports, transitively. */
function closure(manifest, key, into = new Set()) {
  const entry = manifest[key];
  if (!entry)
    throw new Error(`${key} is not in the build manifest; was the widget built with \`vite build\`?`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const imported of entry.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** Measures the budgets of a build in `distDir`. */
export function measureBudgets(distDir) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const gzipped = new Map();
  const size = (files) =>
    [...files].reduce((total, file) => {
      if (!gzipped.has(file))
        gzipped.set(file, gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length);
      return total + gzipped.get(file);
    }, 0);

  const loader = closure(manifest, ENTRY);
  // The app chunk is the one the loader imports lazily (a chunk group in `vite.config.ts`, keyed by its file).
  const appKeys = manifest[ENTRY].dynamicImports ?? [];
  if (appKeys.length !== 1)
    throw new Error(`the loader should import one app chunk lazily, not ${appKeys.length}`);
  const app = closure(manifest, appKeys[0]);
  const locales = Object.keys(manifest).filter((key) => LOCALE_TABLE.test(key));
  if (locales.length === 0) throw new Error('no message table in the build manifest');
  const largest = (tables) =>
    tables.map((table) => closure(manifest, table)).sort((a, b) => size(b) - size(a))[0] ?? new Set();
  const largestLocale = largest(locales);
  const firstScreen = new Set([...loader, ...app, ...largestLocale]);
  const later = (files) => new Set([...files].filter((file) => !firstScreen.has(file)));
  const install = later(closure(manifest, INSTALL));
  const deviceCheckTables = Object.keys(manifest).filter((key) => DEVICE_CHECK_TABLE.test(key));
  if (deviceCheckTables.length === 0) throw new Error('no device-check message table in the build manifest');
  const deviceCheck = later([...closure(manifest, DEVICE_CHECK), ...largest(deviceCheckTables)]);

  const figures = {
    loader: size(loader),
    firstScreen: size(firstScreen),
    install: size(install),
    deviceCheck: size(deviceCheck),
  };
  const breaches = Object.entries(figures)
    .filter(([name, bytes]) => bytes > BUDGETS[name])
    .map(([name]) => name);
  return { figures, breaches };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const distDir = process.argv[2] ?? join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  const { figures, breaches } = measureBudgets(distDir);
  const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
  const labels = {
    loader: 'loader (widget.js)',
    firstScreen: 'first screen (loader + app + messages)',
    install: 'install step with QR encoder (lazy)',
    deviceCheck: 'device check with its messages (lazy)',
  };
  for (const [name, bytes] of Object.entries(figures)) {
    const mark = breaches.includes(name) ? 'OVER' : 'ok';
    console.log(
      `${labels[name].padEnd(42)} ${kb(bytes).padStart(9)} gzip  (budget ${kb(BUDGETS[name])})  ${mark}`,
    );
  }
  if (breaches.length > 0) {
    console.error(`Size budget broken: ${breaches.join(', ')}`);
    process.exit(1);
  }
}
