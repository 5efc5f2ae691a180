#!/usr/bin/env node
/**
 * @module
 * `pnpm test` once the system programs are there: runs the phases of `test-phases.mjs`, each as soon as the ones
 * it comes after passed, side by side otherwise, so that the command takes about the time of its longest chain
 * rather than the sum of its parts. A phase's output is printed whole when it ends (side by side they would
 * interleave line by line), under a line with its time. After a failure nothing new starts, and the command exits
 * 1 once the running phases ended. Last, the ten slowest tests of the run, from vitest's and Playwright's JSON
 * reports (`slowest-tests.mjs`), and every failed test with its first lines.
 *
 * Usage: `node scripts/test-command.mjs [--only <phase>,<phase>…]` (`--only`: those phases, in their order, for
 * when you work on one part; the test command runs them all).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatFailed, formatSlowest, slowest, testsOfReports } from './slowest-tests.mjs';
import { PHASES } from './test-phases.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const { only } = parseArgs({ options: { only: { type: 'string' } } }).values;
const chosen = only?.split(',') ?? PHASES.map((phase) => phase.name);
const unknown = chosen.filter((name) => !PHASES.some((phase) => phase.name === name));
if (unknown.length > 0) {
  console.error(
    `No phase ${unknown.join(', ')}: the phases are ${PHASES.map((phase) => phase.name).join(', ')}.`,
  );
  process.exit(1);
}
const reports = mkdtempSync(join(tmpdir(), 'esim-test-reports-'));
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Runs one phase in a shell at the repository's root; resolves with whether it passed. */
function run(phase) {
  return new Promise((resolve) => {
    const since = Date.now();
    // `nice` lowers a phase that measures no time below the tests beside it (Linux and macOS have it).
    const command = `${phase.yields ? 'nice -n 10 ' : ''}${phase.command(reports)}`;
    console.log(`▶ ${phase.name}: ${command}`);
    const child = spawn(command, { cwd: REPO, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const passed = code === 0;
      const rule = `── ${phase.name} ${passed ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(since)} `;
      console.log(`\n${rule.padEnd(100, '─')}`);
      process.stdout.write(Buffer.concat(output));
      console.log(`${'─'.repeat(100)}\n`);
      resolve(passed);
    });
  });
}

/** Runs the phases, each once the ones it comes after passed; resolves with the names of those that failed. */
async function runAll() {
  const done = new Set();
  const failed = [];
  const running = new Map();
  // A phase left out by --only is not waited for.
  const waiting = PHASES.filter((phase) => chosen.includes(phase.name)).map((phase) => ({
    ...phase,
    after: (phase.after ?? []).filter((name) => chosen.includes(name)),
  }));
  const heartbeat = setInterval(
    () => console.log(`… ${seconds(started)}: ${[...running.keys()].join(', ')} running`),
    60_000,
  );
  while (waiting.length > 0 || running.size > 0) {
    if (failed.length === 0) {
      for (const phase of waiting.filter(({ after }) => after.every((name) => done.has(name)))) {
        waiting.splice(waiting.indexOf(phase), 1);
        running.set(
          phase.name,
          run(phase).then((passed) => {
            running.delete(phase.name);
            if (passed) done.add(phase.name);
            else failed.push(phase.name);
          }),
        );
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  clearInterval(heartbeat);
  return failed;
}

const failed = await runAll();
const tests = testsOfReports(
  PHASES.filter((phase) => phase.report).map((phase) => join(reports, phase.report)),
);
if (tests.length > 0) {
  console.log(`The ten slowest of ${tests.length} tests:`);
  console.log(formatSlowest(slowest(tests, 10)));
}
// Last, so that the end of a red run's output (often all a CI page keeps) names what failed.
const failedTests = formatFailed(tests);
if (failedTests !== '') console.log(`\nThe failed tests:\n${failedTests}`);
rmSync(reports, { recursive: true, force: true });
console.log(
  failed.length === 0
    ? `\nEvery phase passed in ${seconds(started)}.`
    : `\nFAILED: ${failed.join(', ')} (after ${seconds(started)}).`,
);
process.exit(failed.length === 0 ? 0 : 1);
