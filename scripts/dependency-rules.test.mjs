/**
 * The dependency rule (`scripts/dependency-rules.mjs`) holds for the repo, and each of its parts catches the
 * breach it is for in a small workspace written for the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { dependencyBreaches, importSpecifiers } from './dependency-rules.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A workspace of four runtime packages and one private test package, plus the files given. */
function workspace(files) {
  const dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  const write = (path, text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('package.json', JSON.stringify({ name: 'root' }));
  write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n  - e2e\n');
  for (const name of ['shared', 'sandbox', 'bff', 'widget']) {
    const exports = { '.': './src/index.ts', './testing': './testing/index.ts' };
    write(`packages/${name}/package.json`, JSON.stringify({ name: `@esim-embed/${name}`, exports }));
    write(`packages/${name}/src/index.ts`, 'export const x = 1;\n');
  }
  write('e2e/package.json', JSON.stringify({ name: '@esim-embed/e2e' }));
  for (const [path, text] of Object.entries(files)) write(path, text);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const cleanups = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('the dependency rule', () => {
  it('holds for the repo', () => {
    expect(dependencyBreaches(root)).toEqual([]);
  });

  it('keeps test support out of the widget’s exports and published files', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/widget/package.json'), 'utf8'));
    expect(Object.keys(manifest.exports).filter((subpath) => subpath.includes('testing'))).toEqual([]);
    expect(manifest.publishConfig.exports).toBeUndefined();
    expect(manifest.files.some((entry) => entry.startsWith('testing'))).toBe(false);
  });

  it('lets runtime code import shared, and tests import test support by name', () => {
    const dir = workspace({
      'packages/bff/src/app.ts': "import { x } from '@esim-embed/shared';\nimport { y } from './y';\n",
      'packages/bff/src/app.test.ts': "import { startStack } from '../testing/stack';\nimport 'vitest';\n",
      'packages/bff/testing/stack.ts': "import { createSandbox } from '@esim-embed/sandbox';\n",
      'e2e/tests/a.spec.ts':
        "import { s } from '@esim-embed/bff/testing';\nimport { w } from '@esim-embed/widget';\n",
    });
    expect(dependencyBreaches(dir)).toEqual([]);
  });

  it('finds every kind of breach', () => {
    const dir = workspace({
      'packages/shared/src/a.ts':
        "import { x } from '@esim-embed/bff';\nimport { readFileSync } from 'node:fs';\n",
      'packages/bff/src/a.ts': [
        "import { s } from '@esim-embed/sandbox';",
        "import { startStack } from '../testing/stack';",
        "import { t } from '@esim-embed/bff/testing';",
        "import { expect } from 'vitest';",
        "const later = await import('@esim-embed/widget');",
        '',
      ].join('\n'),
      'packages/bff/src/testing/stack.ts': 'export const s = 1;\n',
      'packages/bff/testing/stack.ts': 'export const s = 1;\n',
      'e2e/tests/a.spec.ts': [
        "import { en } from '../../packages/widget/src/i18n/en';",
        "import { y } from '@esim-embed/widget/src/y';",
        "const entry = new URL('../../packages/bff/src/server.ts', import.meta.url);",
        "const built = new URL('../../packages/widget/dist/', import.meta.url);",
        '',
      ].join('\n'),
    });
    expect(dependencyBreaches(dir)).toEqual([
      "e2e/tests/a.spec.ts:1: '../../packages/widget/src/i18n/en' reaches @esim-embed/widget by path; import it by name through its exports",
      "e2e/tests/a.spec.ts:2: '@esim-embed/widget/src/y' is not an export of @esim-embed/widget",
      "e2e/tests/a.spec.ts:3: '../../packages/bff/src/server.ts' reaches @esim-embed/bff by path; import it by name through its exports",
      "packages/bff/src/a.ts:1: '@esim-embed/sandbox': @esim-embed/bff runtime code imports only @esim-embed/shared",
      "packages/bff/src/a.ts:2: '../testing/stack' is test support imported by production code",
      "packages/bff/src/a.ts:3: '@esim-embed/bff/testing' is test support imported by production code",
      "packages/bff/src/a.ts:4: 'vitest' is a test library imported by production code",
      "packages/bff/src/a.ts:5: '@esim-embed/widget': @esim-embed/bff runtime code imports only @esim-embed/shared",
      "packages/bff/src/testing/stack.ts: test support inside runtime src/; it belongs in the package's testing/ folder",
      "packages/shared/src/a.ts:1: '@esim-embed/bff': shared imports nothing of ours",
      "packages/shared/src/a.ts:2: 'node:fs': shared does no I/O and imports no Node built-in",
    ]);
  });

  it('lets only test code import test support by a tsconfig paths name, and no other path by one', () => {
    const testing = { paths: { '@esim-embed/widget-testing': ['../packages/widget/testing/index.ts'] } };
    const dir = workspace({
      'e2e/tsconfig.json': JSON.stringify({
        compilerOptions: {
          paths: {
            ...testing.paths,
            '@esim-embed/widget-i18n': ['../packages/widget/src/i18n/en.ts'],
          },
        },
      }),
      'e2e/tests/a.spec.ts': [
        "import { WIDGET_DIST } from '@esim-embed/widget-testing';",
        "import { en } from '@esim-embed/widget-i18n';",
        '',
      ].join('\n'),
      // Full-line comments, as the repo's tsconfig files have.
      'packages/bff/tsconfig.json': `{\n  // the widget's test support\n  "compilerOptions": ${JSON.stringify(testing)}\n}\n`,
      'packages/bff/src/a.ts': "import { WIDGET_DIST } from '@esim-embed/widget-testing';\n",
      'packages/bff/src/a.test.ts': "import { WIDGET_DIST } from '@esim-embed/widget-testing';\n",
      'packages/widget/testing/index.ts': 'export const WIDGET_DIST = 1;\n',
    });
    expect(dependencyBreaches(dir)).toEqual([
      "e2e/tests/a.spec.ts:2: '@esim-embed/widget-i18n' reaches @esim-embed/widget by path through tsconfig paths; import it by name",
      "packages/bff/src/a.ts:1: '@esim-embed/widget-testing' is test support imported by production code",
    ]);
  });

  it('finds a loop of top-level folders and names one import for each of its edges, and imports from above', () => {
    const dir = workspace({
      // routes → http → security → routes: a loop of three; store/ below them all and app.ts on top stay out.
      'packages/bff/src/app.ts': "import { routes } from './routes/routes';\n",
      'packages/bff/src/routes/routes.ts':
        "import { answer } from '../http/answer';\nimport { get } from '../store/store';\n",
      'packages/bff/src/http/answer.ts': "import type { Auth } from '../security/auth.js';\n",
      'packages/bff/src/security/auth.ts': "import { table } from '../routes';\n",
      'packages/bff/src/routes/index.ts': "export { routes } from './routes';\n",
      'packages/bff/src/store/store.ts': 'export const get = 1;\n',
      // No loop, but config/ sits below routes/ in the BFF's layers.
      'packages/bff/src/config/config.ts': "import { routes } from '../routes/routes';\n",
      // Tests and test support do not count: app.test.ts importing upwards makes no loop.
      'packages/bff/src/store/store.test.ts': "import { app } from '../app';\n",
      // A file directly in src/ is its own node: widget.ts and widget/ loop.
      'packages/widget/src/widget.ts': "import { w } from './widget/inner';\n",
      'packages/widget/src/widget/inner.ts': "import { x } from '../widget';\n",
    });
    // The loops of files these folders' loops are made of are the next test's.
    const ofFiles = (breach) => / files import each other/.test(breach);
    expect(dependencyBreaches(dir).filter((breach) => !ofFiles(breach))).toEqual([
      [
        'packages/bff/src: 3 top-level folders import each other around a loop (http/, routes/, security/); cut one of these imports:',
        '  http/ → security/: packages/bff/src/http/answer.ts:1 imports packages/bff/src/security/auth.ts',
        '  routes/ → http/: packages/bff/src/routes/routes.ts:1 imports packages/bff/src/http/answer.ts',
        '  security/ → routes/: packages/bff/src/security/auth.ts:1 imports packages/bff/src/routes/index.ts',
      ].join('\n'),
      'packages/bff/src: config/ imports routes/, a layer above it: packages/bff/src/config/config.ts:1 imports packages/bff/src/routes/routes.ts',
      'packages/bff/src: security/ imports routes/, a layer above it: packages/bff/src/security/auth.ts:1 imports packages/bff/src/routes/index.ts',
      [
        'packages/widget/src: 2 top-level folders import each other around a loop (widget.ts, widget/); cut one of these imports:',
        '  widget.ts → widget/: packages/widget/src/widget.ts:1 imports packages/widget/src/widget/inner.ts',
        '  widget/ → widget.ts: packages/widget/src/widget/inner.ts:1 imports packages/widget/src/widget.ts',
      ].join('\n'),
    ]);
  });

  it('finds a loop of files inside one folder, a type import included, and none in tests', () => {
    const dir = workspace({
      // checkout-index ↔ checkout-record, one way by a type only: a loop all the same.
      'packages/bff/src/checkout/checkout-index.ts': "import { readRecord } from './checkout-record';\n",
      'packages/bff/src/checkout/checkout-record.ts':
        "import type { CheckoutIndex } from './checkout-index';\n",
      'packages/bff/src/checkout/checkout-service.ts': "import { readRecord } from './checkout-record';\n",
      // A test importing the file that imports it makes no loop.
      'packages/sandbox/src/orders.ts': "import { clock } from './clock';\n",
      'packages/sandbox/src/clock.test.ts': "import { orders } from './orders';\n",
      'packages/sandbox/src/clock.ts': 'export const clock = 1;\n',
    });
    expect(dependencyBreaches(dir)).toEqual([
      [
        'packages/bff/src: 2 files import each other around a loop (checkout/checkout-index.ts, checkout/checkout-record.ts); cut one of these imports:',
        '  checkout/checkout-index.ts → checkout/checkout-record.ts: packages/bff/src/checkout/checkout-index.ts:1 imports packages/bff/src/checkout/checkout-record.ts',
        '  checkout/checkout-record.ts → checkout/checkout-index.ts: packages/bff/src/checkout/checkout-record.ts:1 imports packages/bff/src/checkout/checkout-index.ts',
      ].join('\n'),
    ]);
  });

  it('finds a production file over 300 lines that does not say in its header why it is whole', () => {
    const lines = (count, header) =>
      `${header}\n${'export const x = 1;\n'.repeat(count - header.split('\n').length)}`;
    const plain = '/**\n * @module\n * Two concerns in one file.\n */';
    const whole = '/**\n * @module\n * One table.\n * Over 300 lines: the table reads top to bottom.\n */';
    const dir = workspace({
      'packages/bff/src/checkout/long.ts': lines(301, plain),
      'packages/bff/src/checkout/short.ts': lines(300, plain),
      'packages/bff/src/config/table.ts': lines(400, whole),
      // The reason must be a line of the @module header, not a word further down.
      'packages/bff/src/config/later.ts': lines(320, `${plain}\n// Over 300 lines: said too late.`),
      'packages/widget/src/steps/step.tsx': lines(310, plain),
      // Tests and test support are not held to it.
      'packages/bff/src/checkout/long.test.ts': lines(500, plain),
      'packages/bff/testing/stack.ts': lines(500, plain),
    });
    const over = (file, count) =>
      `${file}: ${count} lines, over 300: split it by concern, or say in its @module header why it is whole (a line "Over 300 lines: …")`;
    expect(dependencyBreaches(dir)).toEqual([
      over('packages/widget/src/steps/step.tsx', 310),
      over('packages/bff/src/checkout/long.ts', 301),
      over('packages/bff/src/config/later.ts', 320),
    ]);
  });

  it('reads multi-line, re-export, side-effect and dynamic imports but not comments', () => {
    const text = [
      '/** `import x from "nope"` in a comment */',
      "// import { y } from 'nope';",
      'import {',
      '  a,',
      '  b,',
      "} from './ab';",
      "export { c } from '@scope/c';",
      "import './side-effect.css';",
      "const lazy = () => import('./lazy');",
      '',
    ].join('\n');
    expect(importSpecifiers(text).map(({ specifier, line }) => [specifier, line])).toEqual([
      ['./ab', 3],
      ['@scope/c', 7],
      ['./side-effect.css', 8],
      ['./lazy', 9],
    ]);
  });
});
