/**
 * @module
 * The fuzzer's report: per route its cases, answers by status class, the refused requests checked for stored
 * state and webhooks, and its failures with the requests that caused them; the seed that reproduces the run.
 * As Markdown for a file under `reliability/reports/`, and as lines for the console.
 */
import { type RouteTally, statusClasses } from './route-fuzzer';

/** How a run was made. */
export interface FuzzRunInfo {
  seed: number;
  runsPerRoute: number;
  startedAt: Date;
  durationMs: number;
  nodeVersion: string;
}

const CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;

/** The report as Markdown. */
export function fuzzReportMarkdown(info: FuzzRunInfo, tallies: readonly RouteTally[]): string {
  const total = (pick: (tally: RouteTally) => number) => tallies.reduce((sum, tally) => sum + pick(tally), 0);
  const fiveHundreds = total((tally) => statusClasses(tally).get('5xx') ?? 0);
  const failures = total((tally) => tally.failureCount);
  const lines = [
    `# Route fuzzing — ${info.startedAt.toISOString().slice(0, 10)}`,
    '',
    "Generated requests (fast-check) at every route of the API's description, over a raw socket, against one BFF",
    'on the memory store in front of the real sandbox (`pnpm fuzz`; the properties: `reliability/src/fuzz/route-fuzzer.ts`).',
    '',
    `- seed **${info.seed}**, ${info.runsPerRoute} cases per route, ${tallies.length} routes, ${total((tally) => tally.cases)} cases in ${(info.durationMs / 1000).toFixed(0)} s (Node.js ${info.nodeVersion})`,
    `- answers 5xx: **${fiveHundreds}**; cases breaking a property: **${failures}**`,
    `- refused requests checked to have stored nothing and sent no webhook: ${total((tally) => tally.refusedChecked)}`,
    `- reproduce: \`pnpm fuzz --seed ${info.seed} --runs ${info.runsPerRoute} [--route <id>]\``,
    '',
    '| route | auth | cases | 2xx | 3xx | 4xx | 5xx | refusals checked | failures |',
    '| ----- | ---- | ----: | --: | --: | --: | --: | ---------------: | -------: |',
    ...tallies.map((tally) => {
      const classes = statusClasses(tally);
      const counts = CLASSES.map((name) => classes.get(name) ?? 0);
      return `| \`${tally.route.method} ${tally.route.path}\` | ${tally.route.auth} | ${tally.cases} | ${counts.join(' | ')} | ${tally.refusedChecked} | ${tally.failureCount} |`;
    }),
    '',
  ];
  lines.push('## Refusals by code', '');
  for (const tally of tallies) {
    const codes = [...tally.codes]
      .sort(([, a], [, b]) => b - a)
      .map(([code, count]) => `${code} ${count}`)
      .join(', ');
    lines.push(`- \`${tally.route.id}\`: ${codes === '' ? 'none' : codes}`);
  }
  lines.push('');
  const failing = tallies.filter((tally) => tally.failures.length > 0);
  if (failing.length > 0) {
    lines.push('## Failures', '');
    for (const tally of failing) {
      lines.push(`### ${tally.route.id} (${tally.failureCount})`, '');
      for (const failure of tally.failures) lines.push(`- \`${failure.replaceAll('`', "'")}\``);
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** One console line per route. */
export function fuzzReportLine(tally: RouteTally): string {
  const classes = [...statusClasses(tally)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name}×${count}`)
    .join(' ');
  const name = `${tally.route.method} ${tally.route.path}`;
  return `${name.padEnd(56)} ${String(tally.cases).padStart(6)} cases  ${classes.padEnd(28)} failures ${tally.failureCount}`;
}
