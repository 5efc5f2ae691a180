/**
 * The test command's phases leave nothing out and run side by side only where that is safe: every check of the
 * command is a phase, every test file of the root vitest run is in exactly one vitest phase, the order names real
 * phases without a loop, and a phase that writes a shared build is ordered against every phase that touches it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import rootConfig from '../vitest.config.ts';
import { PHASES } from './test-phases.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const byName = new Map(PHASES.map((phase) => [phase.name, phase]));

/** The phases `name` waits for, directly or through others. */
function waitsFor(name, seen = new Set()) {
  for (const earlier of byName.get(name).after ?? []) {
    if (!seen.has(earlier)) {
      seen.add(earlier);
      waitsFor(earlier, seen);
    }
  }
  return seen;
}

/** The test files a `vitest run …` command line would run (its filters, without running them). */
async function vitestFiles(command) {
  const args = command
    .replace(/^vitest run/, '')
    .replace(/ --reporter=.*$/, '')
    .split(' ')
    .filter((arg) => arg !== '')
    .map((arg) => arg.replace(/'/g, ''));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [`${REPO}node_modules/vitest/vitest.mjs`, 'list', '--filesOnly', ...args, '--json'],
    { cwd: REPO, encoding: 'utf8' },
  );
  return JSON.parse(stdout).map((entry) => `${entry.projectName}:${entry.file}`);
}

describe('the test command', () => {
  it('runs the system check, then the phases', () => {
    const { scripts } = JSON.parse(readFileSync(`${REPO}package.json`, 'utf8'));
    expect(scripts.test).toBe('node scripts/system-deps.mjs && node scripts/test-command.mjs');
  });

  it('lints the code and the OpenAPI document the BFF serves (Redocly CLI, its recommended rules)', () => {
    const { scripts } = JSON.parse(readFileSync(`${REPO}package.json`, 'utf8'));
    const bff = JSON.parse(readFileSync(`${REPO}packages/bff/package.json`, 'utf8'));
    expect(scripts.lint).toContain('biome check --error-on-warnings .');
    expect(scripts.lint).toContain('pnpm --filter @esim-embed/bff lint:openapi');
    expect(bff.scripts['lint:openapi']).toBe('tsx scripts/lint-openapi.ts');
    const redocly = readFileSync(`${REPO}packages/bff/redocly.yaml`, 'utf8');
    expect(redocly).toContain('- recommended-strict\n');
    expect(redocly).toContain('telemetry: off\n');
  });

  it('has a phase for lint, type-check, the package checks and the browser suite', () => {
    const commands = PHASES.map((phase) => phase.command('/reports'));
    for (const check of ['pnpm lint', 'pnpm typecheck', 'pnpm test:package'])
      expect(commands).toContain(check);
    expect(commands.some((command) => command.includes('pnpm test:e2e'))).toBe(true);
  });

  it('runs every test file of the root vitest run in exactly one phase', async () => {
    const phaseCommands = PHASES.map((phase) => phase.command('/reports')).filter((command) =>
      command.startsWith('vitest run '),
    );
    const [everyFile, ...perPhase] = await Promise.all(['vitest run', ...phaseCommands].map(vitestFiles));
    const phased = perPhase.flat().sort();
    everyFile.sort();
    expect(everyFile.length).toBeGreaterThan(100);
    expect(phased).toEqual(everyFile);
  }, 60_000);

  it('runs two test files at a time even on two cores (they mostly wait on servers and child processes)', () => {
    expect(rootConfig.test.maxWorkers).toBeGreaterThanOrEqual(2);
  });

  it('lowers every phase that runs no test below the ones that do (their deadlines are real)', () => {
    for (const phase of PHASES) expect(phase.yields === true, phase.name).toBe(phase.report === undefined);
  });

  it('waits only for phases that exist, listed before it, so there is no loop', () => {
    PHASES.forEach((phase, index) => {
      for (const earlier of phase.after ?? []) {
        expect(
          PHASES.findIndex(({ name }) => name === earlier),
          `${phase.name} after ${earlier}`,
        ).toBeGreaterThan(-1);
        expect(
          PHASES.findIndex(({ name }) => name === earlier),
          `${phase.name} after ${earlier}`,
        ).toBeLessThan(index);
      }
    });
  });

  it('never runs a phase that reads or writes a build beside one that writes it', () => {
    const clashes = [];
    for (const writer of PHASES) {
      for (const output of writer.writes ?? []) {
        for (const other of PHASES) {
          if (other === writer) continue;
          const touches = [...(other.reads ?? []), ...(other.writes ?? [])].includes(output);
          const ordered = waitsFor(writer.name).has(other.name) || waitsFor(other.name).has(writer.name);
          if (touches && !ordered) clashes.push(`${writer.name} writes ${output} beside ${other.name}`);
        }
      }
    }
    expect(clashes).toEqual([]);
  });
});
