#!/usr/bin/env node
/**
 * @module
 * `pnpm check:package` (`pnpm test:package` at the root): the widget checked as the package npm would serve.
 * Packs it twice into a temporary folder, with `pnpm pack` and with `npm pack` (each runs `prepack`, which
 * builds), since either client may publish it. Checks each tarball: every file its manifest names (`exports`,
 * `types`, `customElements`, `web-types`, …) is in it, and nothing else that should not be (tests, `testing/`,
 * `src/`, source maps, build leftovers, a test-support export or a workspace dependency); then that the two
 * hold the same files and manifest entries. publint --strict and attw run on the pnpm tarball. Prints
 * what it found; exits 1 on a breach.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files that must never be published, with why. */
const FORBIDDEN = [
  [/(^|\/)(src|testing|scripts)\//, 'source, test support or build scripts'],
  [/\.(test|spec|test-d)\.[cm]?[jt]sx?$|(^|\/)__tests__\//, 'a test'],
  [/\.map$/, 'a source map (none is intended)'],
  [/(^|\/)\.vite\/|\.tsbuildinfo$|\.tgz$/, 'a build leftover'],
  [/(^|\/)(tsconfig[^/]*\.json|vite(st)?\.config\.[cm]?[jt]s)$/, 'build configuration'],
];

/** Every file path a value of `exports` names, through its conditions. */
export function exportTargets(value) {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(exportTargets);
}

/** `./dist/lib/index.js` → `dist/lib/index.js`. */
const normalise = (path) => path.replace(/^\.\//, '');

/**
 * What is wrong with a packed package: `manifest` is its packed `package.json`, `files` the paths in the
 * tarball (without the `package/` prefix). Returns one line per breach; empty when the package is right.
 */
export function packedFileBreaches(manifest, files) {
  const packed = new Set(files);
  const breaches = [];

  const exports = manifest.exports ?? {};
  for (const subpath of Object.keys(exports)) {
    if (/(^|\/)testing(\/|$)/.test(subpath)) breaches.push(`exports ${subpath}: test support`);
  }
  const named = [
    ...exportTargets(exports).map((target) => ['exports', target]),
    ...['main', 'module', 'types', 'typings', 'customElements', 'web-types']
      .filter((field) => typeof manifest[field] === 'string')
      .map((field) => [field, manifest[field]]),
  ];
  for (const [field, target] of named) {
    if (target.includes('*')) breaches.push(`${field} ${target}: a pattern; name each file`);
    else if (!packed.has(normalise(target))) breaches.push(`${field} ${target}: not in the tarball`);
  }
  for (const entry of manifest.files ?? []) {
    const path = normalise(entry).replace(/\/$/, '');
    if (!files.some((file) => file === path || file.startsWith(`${path}/`))) {
      breaches.push(`files ${entry}: matches nothing in the tarball`);
    }
  }

  for (const file of files) {
    const forbidden = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (forbidden) breaches.push(`${file}: ${forbidden[1]}`);
  }
  if (!packed.has('LICENSE')) breaches.push('LICENSE: not in the tarball');
  if (!manifest.license || manifest.license === 'UNLICENSED') breaches.push('license: none');
  if (manifest.publishConfig?.access !== 'public') {
    breaches.push('publishConfig.access: not "public" (a scoped package would publish as restricted)');
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) breaches.push(`${field} ${name}: ${range}`);
      if (name.startsWith('@esim-embed/')) breaches.push(`${field} ${name}: a private workspace package`);
    }
  }
  return breaches;
}

/** The manifest fields a consumer's install and resolution read. */
const RESOLVED_FIELDS = [
  'exports',
  'main',
  'module',
  'types',
  'customElements',
  'web-types',
  'dependencies',
  'peerDependencies',
];

/**
 * How two clients' tarballs differ (`packs`: `{ pnpm: { manifest, files }, npm: … }`): files only one holds, and
 * manifest fields a consumer reads that are not the same. One line per difference; empty when they are alike.
 */
export function packDifferences(packs) {
  const [[nameA, a], [nameB, b]] = Object.entries(packs);
  const onlyIn = (x, y, name) =>
    x.files.filter((file) => !y.files.includes(file)).map((file) => `${file}: only in the ${name} tarball`);
  const differences = [...onlyIn(a, b, nameA), ...onlyIn(b, a, nameB)];
  for (const field of RESOLVED_FIELDS) {
    if (JSON.stringify(a.manifest[field]) !== JSON.stringify(b.manifest[field])) {
      differences.push(`${field}: not the same in the ${nameA} and ${nameB} manifests`);
    }
  }
  return differences;
}

/** Runs a command, output shown; returns whether it succeeded. */
function run(command, args, options) {
  console.log(`$ ${[command, ...args].join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit', ...options }).status === 0;
}

/** pnpm as the script runner started it (`npm_execpath`), else the pinned one through npx. */
function pnpm() {
  const execPath = process.env.npm_execpath ?? '';
  if (/pnpm/.test(execPath)) {
    return /\.[cm]?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  return ['npx', ['-y', 'pnpm@12.21.0']];
}

/** The files in a tarball (without the `package/` prefix) and its `package.json`. */
function tarballContents(tarball) {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
    .map((line) => line.slice('package/'.length))
    .sort();
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
  return { files, manifest };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const bin = (name) => join(packageDir, 'node_modules', '.bin', name);
  const outDir = mkdtempSync(join(tmpdir(), 'esim-widget-pack-'));
  const failures = [];
  try {
    const [pnpmCommand, pnpmPrefix] = pnpm();
    const clients = {
      pnpm: [pnpmCommand, [...pnpmPrefix, 'pack', '--pack-destination']],
      npm: ['npm', ['pack', '--pack-destination']],
    };
    const packs = {};
    for (const [client, [command, args]] of Object.entries(clients)) {
      const destination = join(outDir, client);
      mkdirSync(destination);
      if (!run(command, [...args, destination], { cwd: packageDir }))
        throw new Error(`${client} pack failed`);
      const tarball = join(destination, readdirSync(destination).find((file) => file.endsWith('.tgz')) ?? '');
      packs[client] = { tarball, ...tarballContents(tarball) };
      const breaches = packedFileBreaches(packs[client].manifest, packs[client].files);
      console.log(`${client} pack: ${tarball}: ${packs[client].files.length} files`);
      for (const breach of breaches) console.error(`  ${breach}`);
      if (breaches.length > 0) failures.push(`${breaches.length} breaches in the ${client} tarball`);
    }
    const differences = packDifferences(packs);
    for (const difference of differences) console.error(`  ${difference}`);
    if (differences.length > 0)
      failures.push(`${differences.length} differences between the pnpm and npm tarballs`);
    else console.log('pnpm and npm pack the same files and exports');

    if (!run(bin('publint'), ['run', packs.pnpm.tarball, '--strict'])) failures.push('publint');
    if (!run(bin('attw'), [packs.pnpm.tarball, '--profile', 'esm-only'])) failures.push('attw');
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`The packed widget is not right: ${failures.join('; ')}`);
    process.exit(1);
  }
  console.log('The packed widget is right: what its manifest names, nothing from tests or sources.');
}
