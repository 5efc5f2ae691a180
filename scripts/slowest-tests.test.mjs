/**
 * The slowest tests are read from both report formats the test command writes (vitest's and Playwright's JSON),
 * named by file (from the repository's root) and title, in seconds, slowest first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { formatFailed, formatSlowest, slowest, testsOfReports } from './slowest-tests.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'esim-slowest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vitestReport = {
  testResults: [
    {
      name: join(REPO, 'packages/bff/src/checkout/exactly-once.test.ts'),
      assertionResults: [
        { ancestorTitles: ['retries'], title: 'a long Retry-After', duration: 15_226 },
        { ancestorTitles: [], title: 'a quick one', duration: 12 },
      ],
    },
  ],
};
const playwrightReport = {
  config: { rootDir: join(REPO, 'e2e/tests') },
  suites: [
    {
      title: 'layout.spec.ts',
      file: 'layout.spec.ts',
      specs: [
        { title: 'fits at 320 px', file: 'layout.spec.ts', tests: [{ results: [{ duration: 11_300 }] }] },
      ],
      suites: [
        {
          title: 'on a phone',
          specs: [
            {
              title: 'passes axe',
              file: 'layout.spec.ts',
              tests: [{ results: [{ duration: 4_000 }, { duration: 1_500 }] }],
            },
          ],
        },
      ],
    },
  ],
};

it('reads both reports and orders their tests slowest first, skipping a report that was never written', () => {
  writeFileSync(join(dir, 'unit.json'), JSON.stringify(vitestReport));
  writeFileSync(join(dir, 'e2e.json'), JSON.stringify(playwrightReport));
  const tests = testsOfReports(
    ['unit.json', 'e2e.json', 'never-written.json'].map((name) => join(dir, name)),
  );
  expect(slowest(tests, 3)).toEqual([
    {
      file: 'packages/bff/src/checkout/exactly-once.test.ts',
      test: 'retries › a long Retry-After',
      seconds: 15.226,
    },
    { file: 'e2e/tests/layout.spec.ts', test: 'fits at 320 px', seconds: 11.3 },
    { file: 'e2e/tests/layout.spec.ts', test: 'on a phone › passes axe', seconds: 5.5 },
  ]);
  expect(formatSlowest(slowest(tests, 1))).toBe(
    '   15.2 s  packages/bff/src/checkout/exactly-once.test.ts  retries › a long Retry-After',
  );
});

it('names every failed test with the first lines of its failure, and a file that failed outside its tests', () => {
  const red = {
    testResults: [
      {
        name: join(REPO, 'packages/bff/src/checkout/exactly-once.test.ts'),
        status: 'failed',
        assertionResults: [
          {
            ancestorTitles: ['retries'],
            title: 'a long Retry-After',
            status: 'failed',
            duration: 10,
            failureMessages: [
              '\u001b[31mAssertionError: expected 2 to be 1\u001b[39m\n\n    at exactly-once.test.ts:40:5',
            ],
          },
          { ancestorTitles: [], title: 'a quick one', status: 'passed', duration: 12 },
        ],
      },
      {
        name: join(REPO, 'packages/bff/src/http/vary.test.ts'),
        status: 'failed',
        message: 'Error: Hook timed out in 10000ms',
        assertionResults: [],
      },
    ],
  };
  const playwrightRed = {
    config: { rootDir: join(REPO, 'e2e/tests') },
    suites: [
      {
        title: 'layout.spec.ts',
        specs: [
          {
            title: 'fits at 320 px',
            file: 'layout.spec.ts',
            tests: [
              { status: 'unexpected', results: [{ duration: 1, error: { message: 'Timeout 5000ms' } }] },
            ],
          },
          {
            title: 'passes axe',
            file: 'layout.spec.ts',
            tests: [
              { status: 'flaky', results: [{ duration: 1, error: { message: 'once' } }, { duration: 1 }] },
            ],
          },
        ],
      },
    ],
  };
  writeFileSync(join(dir, 'red-unit.json'), JSON.stringify(red));
  writeFileSync(join(dir, 'red-e2e.json'), JSON.stringify(playwrightRed));
  const tests = testsOfReports([join(dir, 'red-unit.json'), join(dir, 'red-e2e.json')]);
  expect(formatFailed(tests, 2)).toBe(
    [
      '✗ packages/bff/src/checkout/exactly-once.test.ts  retries › a long Retry-After',
      '    AssertionError: expected 2 to be 1',
      '        at exactly-once.test.ts:40:5',
      '✗ packages/bff/src/http/vary.test.ts  (the file)',
      '    Error: Hook timed out in 10000ms',
      '✗ e2e/tests/layout.spec.ts  fits at 320 px',
      '    Timeout 5000ms',
    ].join('\n'),
  );
  expect(formatFailed(testsOfReports([join(dir, 'unit.json')]))).toBe('');
});
