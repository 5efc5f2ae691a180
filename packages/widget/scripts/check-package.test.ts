// @vitest-environment node
/**
 * The packed-file check of `check-package.mjs` passes the package as it should be published and names each
 * way a tarball can be wrong: a file its manifest names that is missing, test support, sources, source maps,
 * a workspace-only export or dependency, no licence, a restricted scoped package.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { exportTargets, packedFileBreaches } from './check-package.mjs';

const workspaceManifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** The manifest as pnpm packs it: `publishConfig.exports` in place of `exports`, ranges resolved. */
const { exports: publishedExports, ...publishConfig } = workspaceManifest.publishConfig;
const packedManifest = { ...workspaceManifest, exports: publishedExports, publishConfig };

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

it('passes the package as pnpm packs it', () => {
  expect(packedManifest.exports['./testing']).toBeUndefined();
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

it('names the workspace manifest as npm would pack it: the ./testing export', () => {
  expect(packedFileBreaches(workspaceManifest, GOOD_FILES)).toEqual([
    'exports ./testing: a workspace-only export',
    'exports ./testing/index.ts: not in the tarball',
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
