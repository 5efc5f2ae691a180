/**
 * @module
 * The phases of the test command (`pnpm test`, run by `test-command.mjs`): what each runs, which phases must have
 * passed before it starts, and which shared build outputs it writes or reads. Phases that neither wait for each
 * other nor share an output run side by side; `test-phases.test.mjs` checks that every phase of the command is
 * here, that every test file runs in exactly one phase, and that no phase reads a build while another may write it.
 *
 * The shared output is the widget's and the SDK's build (`packages/widget/dist`, `packages/partner/dist`): each
 * pack of the package checks builds them in place; the examples' type-check, the framework examples' builds and
 * the browser suite read them. `pnpm release` (the reliability suite's release test, the browser suite's partner
 * quickstart) builds and packs them in copies of its own and never writes them.
 */
import { join } from 'node:path';

/** The build outputs more than one phase touches. */
export const BUILDS = 'the widget and SDK builds';

/** The reliability suite's folder (in its project) whose test builds the release (the slowest of its files). */
const RELEASE_TESTS = 'src/release/';

/** A vitest run of `args` that also writes its JSON report (for the slowest tests) as `<name>.json` in `reports`. */
const vitest = (args, name) => (reports) =>
  `vitest run ${args} --reporter=default --reporter=json --outputFile.json=${join(reports, `${name}.json`)}`;

/**
 * Every phase: `command(reports)` gives its shell command (`reports` is the folder for JSON test reports), `after`
 * the phases it waits for, `writes`/`reads` the shared outputs it touches, `report` the JSON report it leaves.
 * `yields`: it measures no time (builds, type-checks, lint), so it runs at a lower CPU priority and the tests
 * beside it, whose timeouts and deadlines are real, keep the cores they need.
 */
export const PHASES = [
  { name: 'lint', command: () => 'pnpm lint', yields: true },
  // Packs (and so builds) the widget and the SDK: the builds the phases after it read.
  { name: 'package', command: () => 'pnpm test:package', writes: [BUILDS], yields: true },
  { name: 'typecheck', command: () => 'pnpm typecheck', after: ['package'], reads: [BUILDS], yields: true },
  // The packages' tests read no build (the widget's size test builds into a folder of its own): they start at once.
  { name: 'unit', command: vitest("--project='!reliability'", 'unit'), report: 'unit.json' },
  {
    // Its files one at a time, as its vitest config says, beside the other phases; the release test follows it.
    // Its BFF processes look for the widget's build when they start and skip one being rebuilt; no test asks for it.
    name: 'reliability',
    command: vitest(`--project=reliability --exclude='${RELEASE_TESTS}**'`, 'reliability'),
    after: ['package'],
    report: 'reliability.json',
  },
  {
    // What the browser suite's global setup would otherwise build first (it skips a build newer than its sources).
    name: 'e2e-builds',
    // The console's build checks its first-load budget as it ends.
    command: () =>
      "pnpm --filter @esim-embed/demo --filter @esim-embed/console --filter '@esim-embed/example-*' build",
    after: ['package'],
    reads: [BUILDS],
    yields: true,
  },
  {
    name: 'e2e',
    command: (reports) =>
      `PLAYWRIGHT_JSON_OUTPUT_NAME=${join(reports, 'e2e.json')} pnpm test:e2e --reporter=list,json`,
    after: ['typecheck', 'unit', 'e2e-builds'],
    reads: [BUILDS],
    report: 'e2e.json',
  },
  {
    name: 'release',
    command: vitest(`--project=reliability reliability/${RELEASE_TESTS}`, 'release'),
    after: ['reliability'],
    report: 'release.json',
  },
];
