/**
 * @module
 * This week against the week before, in one run: the latest dated report in `bench/reports/` of 7 or more days
 * before the run, its figures read back from its tables by label, and the change of each figure since then.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How many days back the report a run is compared with is, at least. */
export const WEEK_DAYS = 7;

/** The report a run is compared with: its date and its figures as printed, by label. */
export interface WeekBefore {
  date: string;
  /** The report's file name in `bench/reports/`. */
  file: string;
  figures: Map<string, string>;
}

/**
 * A whole run's report is named by its date alone (`2026-11-22.md`); the others in the folder (`…-redis.md`,
 * `…-before.md`) are one section's experiments, measured under other settings, and are not the week's figures.
 */
const DATED_REPORT = /^(\d{4}-\d{2}-\d{2})\.md$/;

/** The file name of the latest whole-run report of `WEEK_DAYS` or more days before `date`, if any. */
export function weekBeforeFile(names: readonly string[], date: string): string | null {
  const latest = new Date(`${date}T00:00:00Z`);
  latest.setUTCDate(latest.getUTCDate() - WEEK_DAYS);
  const limit = latest.toISOString().slice(0, 10);
  const dates = names
    .map((name) => DATED_REPORT.exec(name)?.[1])
    .filter((day): day is string => day !== undefined && day <= limit)
    .sort();
  const chosen = dates.at(-1);
  return chosen === undefined ? null : `${chosen}.md`;
}

/** The cells of a markdown table row, or null when the line is not one. */
function cells(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|')) return null;
  return trimmed
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
}

/**
 * Every figure of a report's figure tables (those with a `figure` and a `measured` column), as printed, by
 * label; a label in several tables (the targets' summary and its section) keeps its first value. The columns
 * are found by their heading, so a report with more columns than today's (or fewer) reads the same.
 */
export function reportFigures(markdown: string): Map<string, string> {
  const figures = new Map<string, string>();
  let columns: { figure: number; measured: number } | null = null;
  for (const line of markdown.split('\n')) {
    const row = cells(line);
    if (row === null) {
      columns = null;
      continue;
    }
    if (columns === null) {
      const figure = row.indexOf('figure');
      const measured = row.indexOf('measured');
      // A heading row starts a table; a table of another kind is skipped to its end.
      columns = figure >= 0 && measured >= 0 ? { figure, measured } : { figure: -1, measured: -1 };
      continue;
    }
    if (columns.figure < 0 || row.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const label = row[columns.figure];
    const value = row[columns.measured];
    if (label && value !== undefined && !figures.has(label)) figures.set(label, value);
  }
  return figures;
}

/** The report of `WEEK_DAYS` or more days before `date` in `folder`, read, or null when there is none. */
export function readWeekBefore(folder: string, date: string): WeekBefore | null {
  const file = weekBeforeFile(readdirSync(folder), date);
  if (file === null) return null;
  return {
    date: file.slice(0, 10),
    file,
    figures: reportFigures(readFileSync(join(folder, file), 'utf8')),
  };
}

/** A printed figure's number and unit (`1,626 ms` → 1626, `ms`), or null for one that is not a number. */
function parseFigure(printed: string): { value: number; unit: string; decimals: number } | null {
  const match = /^([-−+]?[\d,]*\.?\d+)\s*(.*)$/.exec(printed.trim());
  if (!match) return null;
  const digits = (match[1] as string).replace(/,/g, '').replace('−', '-');
  return {
    value: Number(digits),
    unit: (match[2] as string).trim(),
    decimals: digits.split('.')[1]?.length ?? 0,
  };
}

/**
 * How a figure moved since the week before: the difference in its own unit (percentages in points) and, for
 * other units, in per cent of the old figure, then whether that is better or worse for its target (`≥ …`: up
 * is better, `≤ …`: down). `—` when either figure is missing or they are not in the same unit.
 */
export function figureChange(now: string, before: string | undefined, target: string): string {
  if (before === undefined) return '—';
  const current = parseFigure(now);
  const previous = parseFigure(before);
  if (current === null || previous === null || current.unit !== previous.unit) return '—';
  // In this week's precision: `0.00 ms` a week ago and `204 ms` now moved by `+204 ms`.
  const decimals = current.decimals;
  const difference = Number((current.value - previous.value).toFixed(decimals));
  if (difference === 0) return 'same';
  const sign = difference > 0 ? '+' : '−';
  const amount = Math.abs(difference).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  const change =
    current.unit === '%'
      ? `${sign}${amount} pts`
      : `${sign}${amount}${current.unit ? ` ${current.unit}` : ''}${
          previous.value === 0
            ? ''
            : ` (${sign}${Math.abs((difference / previous.value) * 100).toFixed(0)} %)`
        }`;
  const higherIsBetter = target.trim().startsWith('≥');
  const lowerIsBetter = target.trim().startsWith('≤');
  if (!higherIsBetter && !lowerIsBetter) return change;
  return `${change}, ${difference > 0 === higherIsBetter ? 'better' : 'worse'}`;
}
