/** The report against the week before: which report is chosen, its figures read back, and the joined tables. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check, fmt, type MachineInfo, renderReport, type Section } from './report';
import { figureChange, readWeekBefore, reportFigures, weekBeforeFile } from './week-before';

/** Fixture reports: 2026-11-15 and 2026-11-22 (whole runs), 2026-11-23 (too recent), a section's experiment. */
const FIXTURES = fileURLToPath(new URL('../testing/reports/', import.meta.url));

const MACHINE: MachineInfo = {
  cores: 2,
  cpuModel: 'test',
  memory: '1 MiB',
  node: 'v20',
  serverNode: 'v24',
  chromium: 'not used',
  commit: 'abc1234',
  loadAverage: '0 / 0 / 0',
};

const LONGEST_TASK = 'longest main-thread task caused by the widget at start-up (4× CPU, worst load)';

/** A page section as the bench writes it, with this week's figures. */
const PAGE_SECTION: Section = {
  title: 'Widget on a page',
  command: 'npx -y pnpm@12.21.0 bench --only page',
  lines: [],
  checks: [
    check('page.usable', 'destinations usable after script start (4× CPU, median)', 840, '<=', 1000, fmt.ms),
    check('page.long-tasks', LONGEST_TASK, 48, '<=', 50, fmt.ms),
    check('page.new', 'a figure first measured this week', 3, '<=', 5, fmt.plain),
  ],
};

/** The rows of the rendered report's tables whose first cell is `label`. */
const rowsOf = (report: string, label: string) =>
  report.split('\n').filter((line) => line.startsWith(`| ${label} |`));

describe('the report of the week before', () => {
  const names = readdirSync(FIXTURES);

  it('is the latest whole-run report of 7 or more days before the run', () => {
    expect(weekBeforeFile(names, '2026-11-29')).toBe('2026-11-22.md');
    // 2026-11-22 is 6 days before: the one before it, not a section's experiment (2026-11-21-redis) between them.
    expect(weekBeforeFile(names, '2026-11-28')).toBe('2026-11-15.md');
    expect(weekBeforeFile(names, '2026-11-22')).toBe('2026-11-15.md');
    expect(weekBeforeFile(names, '2026-11-21')).toBeNull();
  });

  it('gives its figures by label, from the figure tables only, the first value of a label kept', () => {
    const weekBefore = readWeekBefore(FIXTURES, '2026-11-29');
    expect(weekBefore?.date).toBe('2026-11-22');
    expect(Object.fromEntries(weekBefore?.figures ?? [])).toEqual({
      'JS for the first screen (gzip)': '21.39 KB',
      [LONGEST_TASK]: '57 ms',
      'purchases per BFF CPU-second, embedded store vs memory store': '62 %',
      'destinations usable after script start (4× CPU, median)': '1,626 ms',
    });
  });
});

describe('a report beside the week before', () => {
  const report = renderReport({
    date: '2026-11-29',
    machine: MACHINE,
    sections: [PAGE_SECTION],
    durationSeconds: 1,
    command: 'npx -y pnpm@12.21.0 bench --only page',
    weekBefore: readWeekBefore(FIXTURES, '2026-11-29'),
  });

  it("puts each figure beside the week before's, with the change, in the summary and in its section", () => {
    expect(report).toContain('| figure | measured | target |  | week before (2026-11-22) | change |');
    expect(rowsOf(report, LONGEST_TASK)).toEqual([
      `| ${LONGEST_TASK} | 48 ms | ≤ 50 ms | PASS | 57 ms | −9 ms (−16 %), better |`,
      `| ${LONGEST_TASK} | 48 ms | ≤ 50 ms | PASS | 57 ms | −9 ms (−16 %), better |`,
    ]);
    expect(rowsOf(report, 'destinations usable after script start (4× CPU, median)')[0]).toBe(
      '| destinations usable after script start (4× CPU, median) | 840 ms | ≤ 1000 ms | PASS | 1,626 ms | −786 ms (−48 %), better |',
    );
    expect(rowsOf(report, 'a figure first measured this week')[0]).toBe(
      '| a figure first measured this week | 3 | ≤ 5 | PASS | — | — |',
    );
    expect(report).toContain('[`2026-11-22.md`](2026-11-22.md)');
  });

  it("reads back as this week's figures, not the week before's", () => {
    expect(reportFigures(report).get(LONGEST_TASK)).toBe('48 ms');
  });

  it('says so when there is no report to compare with, and keeps the plain columns', () => {
    const alone = renderReport({
      date: '2026-11-20',
      machine: MACHINE,
      sections: [PAGE_SECTION],
      durationSeconds: 1,
      command: 'npx -y pnpm@12.21.0 bench --only page',
      weekBefore: readWeekBefore(FIXTURES, '2026-11-20'),
    });
    expect(alone).toContain('No whole-run report of 7 or more days before 2026-11-20');
    expect(rowsOf(alone, LONGEST_TASK)[0]).toBe(`| ${LONGEST_TASK} | 48 ms | ≤ 50 ms | PASS |`);
  });
});

describe('the change of a figure', () => {
  it('is in points for a percentage, better when a "≥" figure rose', () => {
    expect(figureChange('71 %', '62 %', '≥ 80 %')).toBe('+9 pts, better');
  });

  it('is worse when a "≤" figure rose, and keeps the decimals printed', () => {
    expect(figureChange('19.96 KB', '21.39 KB', '≤ 20.00 KB')).toBe('−1.43 KB (−7 %), better');
    expect(figureChange('2,210', '2,000', '≥ 500')).toBe('+210 (+11 %), better');
    expect(figureChange('0.92', '0.79', '≤ 1.2')).toBe('+0.13 (+16 %), worse');
    expect(figureChange('204 ms', '0.00 ms', '≤ 50 ms')).toBe('+204 ms, worse');
  });

  it('is "same" when nothing moved and "—" across units or without a figure before', () => {
    expect(figureChange('0', '0', '≤ 0')).toBe('same');
    expect(figureChange('0.66×', '0.78 ms', '≤ 1.50×')).toBe('—');
    expect(figureChange('57 ms', undefined, '≤ 50 ms')).toBe('—');
    expect(figureChange('—', '57 ms', '≤ 50 ms')).toBe('—');
  });
});
