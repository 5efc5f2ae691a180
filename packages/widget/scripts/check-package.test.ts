// @vitest-environment node
/**
 * The packed-file check of `check-package.mjs` passes the package as it should be published and names each
 * way a tarball can be wrong: a file its manifest names that is missing, test support, sources, source maps,
 * a test-support export, a workspace dependency, no licence, a restricted scoped package; and the comparison
 * of the pnpm and npm tarballs names the files and manifest entries only one of them has.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { exportTargets, packDifferences, packedFileBreaches } from './check-package.mjs';

/** The manifest as pnpm and npm pack it: the workspace one (neither rewrites `exports`). */
const packedManifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** A tarball as it should be: what the manifest names (whatever entries it exports), chunks, the docs. */
const GOOD_FILES = [
  ...new Set([
    'package.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'custom-elements.json',
    'web-types.json',
    'vscode.html-custom-data.json',
    'dist/widget-chunks/widget-app-BTEwznrj.js',
    'dist/lib/chunks/define-ByovtnL5.js',
    ...exportTargets(packedManifest.exports).map((target) => target.replace(/^\.\//, '')),
  ]),
];

it('passes the package as pnpm and npm pack it', () => {
  expect(packedFileBreaches(packedManifest, GOOD_FILES)).toEqual([]);
});

it('names an exported or declared file missing from the tarball, and an empty `files` entry', () => {
  const files = GOOD_FILES.filter(
    (file) => file !== 'dist/lib/react.d.ts' && !file.startsWith('dist/widget-chunks/'),
  );
  expect(packedFileBreaches(packedManifest, files)).toEqual([
    'exports ./dist/lib/react.d.ts: not in the tarball',
    'files dist/widget-chunks: matches nothing in the tarball',
  ]);
  expect(
    packedFileBreaches(
      packedManifest,
      GOOD_FILES.filter((file) => file !== 'web-types.json'),
    ),
  ).toContain('web-types ./web-types.json: not in the tarball');
});

it('names tests, test support, sources, source maps and build leftovers', () => {
  const files = [
    ...GOOD_FILES,
    'testing/index.ts',
    'src/define.ts',
    'dist/lib/define.test.js',
    'dist/widget.js.map',
    'dist/.vite/manifest.json',
    'tsconfig.lib.json',
  ];
  expect(packedFileBreaches(packedManifest, files)).toEqual([
    'testing/index.ts: source, test support or build scripts',
    'src/define.ts: source, test support or build scripts',
    'dist/lib/define.test.js: a test',
    'dist/widget.js.map: a source map (none is intended)',
    'dist/.vite/manifest.json: a build leftover',
    'tsconfig.lib.json: build configuration',
  ]);
});

it('names an export of test support, which npm and pnpm alike would publish', () => {
  const manifest = {
    ...packedManifest,
    exports: { ...packedManifest.exports, './testing': './testing/index.ts' },
  };
  expect(packedFileBreaches(manifest, GOOD_FILES)).toEqual([
    'exports ./testing: test support',
    'exports ./testing/index.ts: not in the tarball',
  ]);
});

it('finds the pnpm and npm tarballs alike, or names what only one has', () => {
  const pnpm = { manifest: packedManifest, files: GOOD_FILES };
  expect(
    packDifferences({ pnpm, npm: { manifest: packedManifest, files: [...GOOD_FILES].reverse() } }),
  ).toEqual([]);
  const { './vue': _vue, ...exports } = packedManifest.exports;
  const npm = {
    manifest: {
      ...packedManifest,
      exports,
      dependencies: { ...packedManifest.dependencies, extra: '1.0.0' },
    },
    files: [...GOOD_FILES.filter((file) => file !== 'web-types.json'), 'testing/index.ts'],
  };
  expect(packDifferences({ pnpm, npm })).toEqual([
    'web-types.json: only in the pnpm tarball',
    'testing/index.ts: only in the npm tarball',
    'exports: not the same in the pnpm and npm manifests',
    'dependencies: not the same in the pnpm and npm manifests',
  ]);
});

it('names a missing licence, a restricted scoped package and a workspace dependency', () => {
  const manifest = {
    ...packedManifest,
    license: 'UNLICENSED',
    publishConfig: {},
    dependencies: { ...packedManifest.dependencies, '@esim-embed/shared': 'workspace:*' },
  };
  expect(
    packedFileBreaches(
      manifest,
      GOOD_FILES.filter((file) => file !== 'LICENSE'),
    ),
  ).toEqual([
    'files LICENSE: matches nothing in the tarball',
    'LICENSE: not in the tarball',
    'license: none',
    'publishConfig.access: not "public" (a scoped package would publish as restricted)',
    'dependencies @esim-embed/shared: workspace:*',
    'dependencies @esim-embed/shared: a private workspace package',
  ]);
});
