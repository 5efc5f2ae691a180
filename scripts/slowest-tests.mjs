#!/usr/bin/env node
/**
 * @module
 * The slowest tests of a run, read from the JSON reports vitest (`--reporter=json`) and Playwright (its `json`
 * reporter) write: file, test and seconds, slowest first. The test command prints the ten slowest at its end, so a
 * test that starts waiting on real time is seen in the run that made it slow.
 *
 * Usage: `node scripts/slowest-tests.mjs [--count 10] <report.json>…`
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The tests of a vitest JSON report (Jest's shape: `testResults[].assertionResults[]`). */
function vitestTests(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      file: relative(REPO, file.name),
      test: [...test.ancestorTitles, test.title].join(' › '),
      seconds: (test.duration ?? 0) / 1000,
    })),
  );
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { count: { type: 'string', default: '10' } },
    allowPositionals: true,
  });
  const count = Number(values.count);
  console.log(`The ${count} slowest tests:`);
  console.log(formatSlowest(slowest(testsOfReports(positionals), count)));
}
