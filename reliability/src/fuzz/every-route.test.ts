/**
 * Property-based requests at every route of the API's description (taken from `ROUTES`: a new route is fuzzed, or
 * the suite fails naming it), with a fixed seed and a small count — the same properties `pnpm fuzz` checks at
 * volume (`route-fuzzer.ts`): no 5xx, no hang, refusals in the error envelope with a known code, no stack trace
 * or internal path, nothing stored and no webhook sent from a refused request, no prototype pollution; and
 * nothing logged at error level, no secret logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { findSecrets } from '../harness/secret-scan';
import { fuzzReportLine } from './fuzz-report';
import { type FuzzRoutesResult, fuzzRoutes } from './fuzz-routes';
import { statusClasses } from './route-fuzzer';
import { inputsOf } from './route-inputs';

const RUNS_PER_ROUTE = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 40);
const SEED = Number(process.env.RELIABILITY_FUZZ_SEED ?? 20_261_126);

let result: FuzzRoutesResult;
beforeAll(async () => {
  result = await fuzzRoutes({ numRuns: RUNS_PER_ROUTE, seed: SEED });
}, 300_000);

describe(`every route of the BFF under generated requests (seed ${SEED})`, () => {
  it('knows how to make a genuine request to every route of the table', () => {
    expect(() => inputsOf(ROUTES)).not.toThrow();
    expect(result.tallies.map((tally) => tally.route.id)).toEqual(ROUTES.map((route) => route.id));
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route.id]))('%s', (_name, id) => {
    const tally = result.tallies.find((candidate) => candidate.route.id === id);
    if (tally === undefined) throw new Error(`${id} was not fuzzed`);
    expect(tally.cases).toBe(RUNS_PER_ROUTE);
    expect(tally.failures, fuzzReportLine(tally)).toEqual([]);
    expect(tally.failureCount).toBe(0);
    expect(statusClasses(tally).get('5xx') ?? 0).toBe(0);
  });

  it('checked refusals of every route that refuses, and let genuine requests through somewhere', () => {
    const refused = result.tallies.reduce((sum, tally) => sum + tally.refusedChecked, 0);
    const succeeded = result.tallies.reduce((sum, tally) => sum + (statusClasses(tally).get('2xx') ?? 0), 0);
    expect(refused).toBeGreaterThan(ROUTES.length * RUNS_PER_ROUTE * 0.3);
    expect(succeeded).toBeGreaterThan(ROUTES.length * RUNS_PER_ROUTE * 0.1);
  });

  it('logged no 5xx and no internal error while fuzzed', () => {
    const failures = result.logs.filter((line) => /"level":"error"|"status":5\d\d/.test(line));
    expect(failures).toEqual([]);
  });

  it('wrote no secret to its logs while fuzzed', () => {
    expect(findSecrets(result.logs, result.secrets)).toEqual([]);
  });
});

afterAll(() => {
  if (result === undefined) return;
  const figures: Figure[] = result.tallies.map((tally) => [
    `${tally.route.method} ${tally.route.path}`,
    `${tally.cases} cases · ${[...statusClasses(tally)].map(([name, count]) => `${name}×${count}`).join(' ')}`,
  ]);
  const total = result.tallies.reduce((sum, tally) => sum + tally.cases, 0);
  figures.push([`total (seed ${SEED}; no 5xx, nothing stored when refused)`, `${total} cases`]);
  recordFigures('bad input · BFF routes', figures);
});
