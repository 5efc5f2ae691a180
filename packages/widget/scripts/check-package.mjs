#!/usr/bin/env node
/**
 * @module
 * `pnpm check:package` (`pnpm test:package` at the root): the widget checked as the package npm would serve.
 * Packs it with `pnpm pack` into a temporary folder (`prepack` builds it), then checks the tarball: every file
 * its manifest names (`exports`, `types`, `customElements`, `web-types`, …) is in it, and nothing else that
 * should not be (tests, `testing/`, `src/`, source maps, build leftovers, a workspace-only export or
 * dependency). Then `npm pack` must refuse (see `require-pnpm.mjs`), and publint --strict and attw run on the
 * same tarball. Prints what it found; exits 1 on a breach.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
    if (/(^|\/)testing(\/|$)/.test(subpath)) breaches.push(`exports ${subpath}: a workspace-only export`);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const bin = (name) => join(packageDir, 'node_modules', '.bin', name);
  const outDir = mkdtempSync(join(tmpdir(), 'esim-widget-pack-'));
  const failures = [];
  try {
    const [command, prefix] = pnpm();
    if (!run(command, [...prefix, 'pack', '--pack-destination', outDir], { cwd: packageDir })) {
      throw new Error('pnpm pack failed');
    }
    const tarball = join(outDir, readdirSync(outDir).find((file) => file.endsWith('.tgz')) ?? '');
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
      .map((line) => line.slice('package/'.length));
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    );
    const breaches = packedFileBreaches(manifest, files);
    console.log(`${tarball}: ${files.length} files`);
    for (const breach of breaches) console.error(`  ${breach}`);
    if (breaches.length > 0) failures.push(`${breaches.length} breaches in the tarball`);

    const npmPack = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: packageDir, encoding: 'utf8' });
    if (npmPack.status === 0 || !/packed and published with pnpm/.test(npmPack.stderr)) {
      failures.push('npm pack did not refuse (it would publish the workspace exports)');
    } else {
      console.log('npm pack refuses, as it should: the package is published with pnpm');
    }

    if (!run(bin('publint'), ['run', tarball, '--strict'])) failures.push('publint');
    if (!run(bin('attw'), [tarball, '--profile', 'esm-only'])) failures.push('attw');
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
