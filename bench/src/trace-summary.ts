/**
 * @module
 * `tsx src/trace-summary.ts <trace.json> [min ms]`: the page's long main-thread tasks in a Chromium trace (as
 * `BENCH_TRACE_DIR` writes them for the page section), each with its CPU time and what ran inside it — script
 * evaluation and calls by file, timers, style, layout, paint — to tell which part of the widget's start makes
 * a task long.
 */
import { readFileSync } from 'node:fs';
import { scriptRequest, type TraceEvent, traceEvents } from './page-trace';

/** A complete event with the events that ran inside it. */
interface Span {
  event: TraceEvent;
  end: number;
  children: Span[];
}

const [file, minArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx src/trace-summary.ts <trace.json> [min ms]');
const minMs = Number(minArg ?? 50);
const events = traceEvents(readFileSync(file, 'utf8'));
// The page's main thread: the one that requested the widget's script.
const main = scriptRequest(events, '/widget.js');
const onMain = events
  .filter(
    (event) =>
      event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined,
  )
  .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));

// Nest the complete events: each one inside the latest still open that encloses it.
const roots: Span[] = [];
const open: Span[] = [];
for (const event of onMain) {
  const span: Span = { event, end: event.ts + (event.dur ?? 0), children: [] };
  while (open.length > 0 && (open.at(-1) as Span).end <= event.ts) open.pop();
  (open.at(-1)?.children ?? roots).push(span);
  open.push(span);
}

// Times from the script's request, as the page section prints them.
const origin = main.ts;
const ms = (us: number) => (us / 1000).toFixed(1);
const label = (event: TraceEvent) => {
  const data = event.args?.data;
  const where = data?.url ? ` ${data.url.replace(/^.*\//, '')}` : '';
  const what = data?.functionName ? ` ${data.functionName}` : '';
  return `${event.name}${what}${where}`;
};

/** The span's time by what ran, to `depth` levels: the children's labels with their durations. */
function breakdown(span: Span, depth: number, indent: string): string[] {
  const lines: string[] = [];
  let inChildren = 0;
  for (const child of span.children) {
    inChildren += child.event.dur ?? 0;
    if ((child.event.dur ?? 0) < 1000) continue;
    lines.push(`${indent}${ms(child.event.dur ?? 0).padStart(6)} ms  ${label(child.event)}`);
    if (depth > 1) lines.push(...breakdown(child, depth - 1, `${indent}  `));
  }
  const self = (span.event.dur ?? 0) - inChildren;
  if (self >= 1000 && span.children.length > 0) lines.push(`${indent}${ms(self).padStart(6)} ms  (itself)`);
  return lines;
}

for (const task of roots) {
  if ((task.event.dur ?? 0) < minMs * 1000) continue;
  const cpu = task.event.tdur === undefined ? '' : `, ${ms(task.event.tdur)} ms CPU`;
  console.log(
    `task at +${ms(task.event.ts - origin)} ms: ${ms(task.event.dur ?? 0)} ms (${task.event.name}${cpu})`,
  );
  for (const line of breakdown(task, 4, '  ')) console.log(line);
}
