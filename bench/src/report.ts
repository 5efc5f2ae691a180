/**
 * @module
 * The bench report: sections of figures, each figure beside its reference from the same run and its
 * target with PASS or MISS, the command that reproduces it, the machine it ran on, and what profiling
 * found for every miss, and beside each figure the same figure a week before (`week-before.ts`). Rendered as
 * markdown to `bench/reports/YYYY-MM-DD.md`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { figureChange, type WeekBefore } from './week-before';

/** A figure held against a target. */
export interface Check {
  /** Stable id (`bff.destinations.rps-ratio`), the heading of its finding in `bench/findings.md`. */
  id: string;
  label: string;
  /** The measured figure as printed (`84 %`, `0.4 ms`). */
  value: string;
  /** The target as printed (`≥ 80 %`). */
  target: string;
  pass: boolean;
}

/** One section of the report. */
export interface Section {
  title: string;
  /** The command that reproduces this section alone. */
  command: string;
  /** Markdown lines: tables and notes. */
  lines: string[];
  checks: Check[];
}

/** A check: `value` against `limit` with `comparison`, printed with `format`. */
export function check(
  id: string,
  label: string,
  value: number,
  comparison: '>=' | '<=',
  limit: number,
  format: (n: number) => string,
): Check {
  const pass = Number.isFinite(value) && (comparison === '>=' ? value >= limit : value <= limit);
  return {
    id,
    label,
    value: format(value),
    target: `${comparison === '>=' ? '≥' : '≤'} ${format(limit)}`,
    pass,
  };
}

/** A markdown table. */
export function table(columns: string[], rows: (string | number)[][]): string[] {
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map((_, index) => (index === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(String).join(' | ')} |`),
    '',
  ];
}

/** Number formats used across the report. */
export const fmt = {
  int: (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—'),
  ms: (n: number) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ms` : '—'),
  percent: (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(0)} %` : '—'),
  kb: (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`,
  plain: (n: number) => (Number.isFinite(n) ? String(Math.round(n * 100) / 100) : '—'),
};

/** What the figures were measured on. */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memory: string;
  node: string;
  /** The Node.js the servers under test run on (`BENCH_NODE`). */
  serverNode: string;
  chromium: string;
  commit: string;
  loadAverage: string;
}

function quietly(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** The machine, Node, Chromium and the commit measured. */
export function machineInfo(chromiumPath: string | null): MachineInfo {
  const dirty = quietly('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memory: fmt.mb(totalmem()).replace(' MB', ' MiB'),
    node: process.version,
    serverNode: process.env.BENCH_NODE ? quietly(process.env.BENCH_NODE, ['--version']) : process.version,
    chromium: chromiumPath ? (quietly(chromiumPath, ['--version']).split('\n')[0] ?? 'unknown') : 'not used',
    commit: `${quietly('git', ['rev-parse', '--short', 'HEAD'])}${dirty ? ' (with uncommitted changes)' : ''}`,
    loadAverage: loadavg()
      .map((load) => load.toFixed(2))
      .join(' / '),
  };
}

/** The figures held against their targets, each beside its value in the report of the week before, if any. */
function checksTable(checks: Check[], weekBefore: WeekBefore | null): string[] {
  const verdict = (c: Check) => (c.pass ? 'PASS' : '**MISS**');
  if (weekBefore === null) {
    return table(
      ['figure', 'measured', 'target', ''],
      checks.map((c) => [c.label, c.value, c.target, verdict(c)]),
    );
  }
  return table(
    ['figure', 'measured', 'target', '', `week before (${weekBefore.date})`, 'change'],
    checks.map((c) => {
      const before = weekBefore.figures.get(c.label);
      return [c.label, c.value, c.target, verdict(c), before ?? '—', figureChange(c.value, before, c.target)];
    }),
  );
}

/** The line that says what the figures are compared with. */
function comparisonNote(date: string, weekBefore: WeekBefore | null): string[] {
  if (weekBefore === null) {
    return [
      `No whole-run report of 7 or more days before ${date} in \`bench/reports/\`: nothing to compare with.`,
      '',
    ];
  }
  return [
    `Beside each figure, the same figure in [\`${weekBefore.file}\`](${weekBefore.file}), the latest whole-run report of 7`,
    'or more days before this one (measured then, on that day’s load; `—`: not measured then, or in another unit).',
    '',
  ];
}

/** The whole report as markdown. */
export function renderReport(input: {
  date: string;
  machine: MachineInfo;
  sections: Section[];
  durationSeconds: number;
  command: string;
  /** The report this run is compared with (`readWeekBefore`), or null when there is none. */
  weekBefore?: WeekBefore | null;
}): string {
  const { machine, sections } = input;
  const weekBefore = input.weekBefore ?? null;
  const checks = sections.flatMap((section) => section.checks);
  const misses = checks.filter((c) => !c.pass);
  const lines = [
    `# eSIM Embed — bench report ${input.date}`,
    '',
    `Reproduce: \`${input.command}\` (${Math.round(input.durationSeconds)} s for this run). Every figure is`,
    'measured beside its reference in the same run; timings vary between machines, ratios much less. The',
    'machine is shared with other work: a load average above its 2 cores means neighbours competed for them',
    '(the BFF’s req/s targets are judged per CPU-second of each server for that reason).',
    '',
    ...table(
      ['machine', ''],
      [
        ['cores', `${machine.cores} × ${machine.cpuModel}`],
        ['memory', machine.memory],
        ['Node (harness)', machine.node],
        ['Node (servers under test: BFF, bare Hono, sandbox)', machine.serverNode],
        ['Chromium', machine.chromium],
        ['commit', machine.commit],
        ['load average at start (1 / 5 / 15 min)', machine.loadAverage],
        [
          'load average at the end',
          loadavg()
            .map((load) => load.toFixed(2))
            .join(' / '),
        ],
      ],
    ),
    `## Targets: ${checks.length - misses.length} of ${checks.length} met`,
    '',
    ...comparisonNote(input.date, weekBefore),
    ...checksTable(checks, weekBefore),
  ];
  const findingsById = readFindings();
  for (const section of sections) {
    lines.push(`## ${section.title}`, '', `Reproduce: \`${section.command}\``, '', ...section.lines);
    if (section.checks.length > 0) lines.push(...checksTable(section.checks, weekBefore));
    const findings = section.checks.filter((c) => findingsById.has(c.id) || !c.pass);
    for (const c of findings) {
      const finding = findingsById.get(c.id);
      lines.push(
        `**${c.pass ? 'Note' : 'MISS'} — ${c.label}.** ${finding ?? 'Not yet investigated: no finding is recorded for this figure.'}`,
        '',
      );
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * What profiling found behind a figure, by check id, from `bench/findings.md`: each `## <check id>` section's
 * text as one paragraph (its lines joined), to be printed under the figure.
 */
export function readFindings(markdown = readFileSync(new URL('../findings.md', import.meta.url), 'utf8')) {
  const findings = new Map<string, string>();
  let id: string | undefined;
  let text: string[] = [];
  const close = () => {
    if (id !== undefined) findings.set(id, text.join(' ').replace(/\s+/g, ' ').trim());
  };
  for (const line of markdown.split('\n')) {
    const heading = /^## (\S+)\s*$/.exec(line);
    if (heading === null) {
      text.push(line);
      continue;
    }
    close();
    id = heading[1];
    text = [];
  }
  close();
  return findings;
}
