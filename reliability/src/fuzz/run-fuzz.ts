/**
 * @module
 * `pnpm fuzz`: every route of the BFF under generated requests at volume (1,000 cases per route by default),
 * its counts per route printed and written to `reliability/reports/fuzz-<date>.md`. Exits 1 when any case broke
 * a property. Options: `--runs <n>`, `--seed <n>` (default: a new one, printed), `--route <id>` (repeatable),
 * `--out <file>`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fuzzReportLine, fuzzReportMarkdown } from './fuzz-report';
import { fuzzRoutes } from './fuzz-routes';

const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url));

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    route: { type: 'string', multiple: true },
    out: { type: 'string' },
  },
});
const runsPerRoute = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(runsPerRoute) || runsPerRoute < 1 || !Number.isInteger(seed)) {
  console.error(
    'usage: pnpm fuzz [--runs <cases per route>] [--seed <integer>] [--route <id>]… [--out <file>]',
  );
  process.exit(2);
}

const startedAt = new Date();
console.log(`fuzzing the BFF's routes: ${runsPerRoute} cases per route, seed ${seed}`);
const { tallies } = await fuzzRoutes({
  numRuns: runsPerRoute,
  seed,
  only: values.route,
  onRoute: (tally) => {
    console.log(fuzzReportLine(tally));
    for (const failure of tally.failures.slice(0, 3)) console.log(`    ${failure.slice(0, 400)}`);
  },
});
const report = fuzzReportMarkdown(
  {
    seed,
    runsPerRoute,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    nodeVersion: process.versions.node,
  },
  tallies,
);
const out = values.out ?? join(REPORTS, `fuzz-${startedAt.toISOString().slice(0, 10)}.md`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
// Laid out as the repository's formatter lays Markdown out (tables aligned), so that the lint passes on it.
spawnSync('npx', ['biome', 'format', '--write', out], {
  cwd: fileURLToPath(new URL('../../..', import.meta.url)),
});
const failures = tallies.reduce((sum, tally) => sum + tally.failureCount, 0);
console.log(`\n${failures} failing cases; report: ${out}`);
process.exit(failures === 0 ? 0 : 1);
