/**
 * @module
 * The suite's global setup: a folder for the figures each test file records, and after the run one summary
 * table of them on stdout.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Figure } from './figures';

/** Provide the figures folder; return the teardown that prints the summary. */
export default function setupFigures(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'esim-reliability-'));
  project.provide('figuresDir', dir);
  return function printSummary() {
    const suites = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map(
        (name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { suite: string; figures: Figure[] },
      );
    rmSync(dir, { recursive: true, force: true });
    if (suites.length === 0) return;
    const rows = suites.flatMap(({ suite, figures }) =>
      figures.map(([label, value]) => [suite, label, String(value)]),
    );
    // Suites that failed before their first figure leave an empty list: nothing to print.
    if (rows.length === 0) return;
    const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
    const line = (row: string[]) =>
      `| ${row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
    const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
    const table = [line(['suite', 'figure', 'value']), rule, ...rows.map(line)].join('\n');
    process.stdout.write(
      `\nReliability figures (every one is what docs/architecture.md's security model promises)\n${table}\n\n`,
    );
  };
}
