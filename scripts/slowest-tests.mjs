#!/usr/bin/env node
/**
 * @module
 * The slowest and the failed tests of a run, read from the JSON reports vitest (`--reporter=json`) and Playwright
 * (its `json` reporter) write: file, test, seconds and, for a failure, its first lines. The test command prints the
 * ten slowest at its end, so a test that starts waiting on real time is seen in the run that made it slow, and then
 * every failed test, so that the last lines of a red run (often all a CI page keeps) name what failed.
 *
 * Usage: `node scripts/slowest-tests.mjs [--count 10] <report.json>…`
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * The tests of a vitest JSON report (Jest's shape: `testResults[].assertionResults[]`). A file that failed outside
 * its tests (an error while loading it, in a hook, or an unhandled one) counts as one failed test named by the file.
 */
function vitestTests(report) {
  return report.testResults.flatMap((file) => {
    const tests = file.assertionResults.map((test) => ({
      file: relative(REPO, file.name),
      test: [...test.ancestorTitles, test.title].join(' › '),
      seconds: (test.duration ?? 0) / 1000,
      failure: test.status === 'failed' ? (test.failureMessages?.[0] ?? 'failed') : undefined,
    }));
    const failedOutside = file.status === 'failed' && !tests.some((test) => test.failure !== undefined);
    return failedOutside
      ? [
          ...tests,
          {
            file: relative(REPO, file.name),
            test: '(the file)',
            seconds: 0,
            failure: file.message || 'failed',
          },
        ]
      : tests;
  });
}

/** The tests of a Playwright JSON report: suites nest, each spec holds its tests and each test its attempts. */
function playwrightTests(report) {
  const root = report.config?.rootDir ?? REPO;
  const fromSuite = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        file: relative(REPO, `${root}/${spec.file}`),
        test: [...titles, spec.title].join(' › '),
        seconds: test.results.reduce((sum, result) => sum + result.duration, 0) / 1000,
        failure:
          test.status === 'unexpected'
            ? (test.results.find((result) => result.error)?.error?.message ?? 'failed')
            : undefined,
      })),
    ),
    ...(suite.suites ?? []).flatMap((inner) => fromSuite(inner, [...titles, inner.title])),
  ];
  // The top suites are the files (their title is the file's name); a `describe` below adds its title.
  return report.suites.flatMap((fileSuite) => fromSuite(fileSuite, []));
}

/** Every test of the reports at `paths` (missing files are skipped: a phase that failed early wrote none). */
export function testsOfReports(paths) {
  return paths
    .filter((path) => existsSync(path))
    .flatMap((path) => {
      const report = JSON.parse(readFileSync(path, 'utf8'));
      return Array.isArray(report.testResults) ? vitestTests(report) : playwrightTests(report);
    });
}

/** The `count` slowest of `tests`, slowest first. */
export function slowest(tests, count) {
  return [...tests].sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

/** A table of `tests` for a terminal: seconds, file, test. */
export function formatSlowest(tests) {
  return tests
    .map(({ file, test, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}  ${test}`)
    .join('\n');
}

/** The failed among `tests`, each with the first `lines` lines of its failure (colour codes removed). */
export function formatFailed(tests, lines = 6) {
  return tests
    .filter((test) => test.failure !== undefined)
    .map(({ file, test, failure }) => {
      const plain = stripVTControlCharacters(failure)
        .split('\n')
        .filter((line) => line.trim() !== '');
      return [`✗ ${file}  ${test}`, ...plain.slice(0, lines).map((line) => `    ${line}`)].join('\n');
    })
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { count: { type: 'string', default: '10' } },
    allowPositionals: true,
  });
  const count = Number(values.count);
  console.log(`The ${count} slowest tests:`);
  console.log(formatSlowest(slowest(testsOfReports(positionals), count)));
}
