/**
 * @module
 * The page's main-thread tasks in a Chromium trace: each task's wall time and the CPU time its thread spent
 * in it. On a machine shared with other work a task's wall time also counts the time the thread waited for
 * a core; its CPU time does not. Under CDP's CPU throttling the thread stays busy while it is held back, so a
 * task's CPU time is what it takes at that slowdown on a core of its own.
 */

/** One event of a Chromium trace (the JSON trace event format). */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread CPU time, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** What the bench records of every load: each task of each thread, and the page's user-timing marks. */
export const TASK_TRACE_CATEGORIES = ['toplevel', 'blink.user_timing'];

/** What `BENCH_TRACE_DIR` records: also the timeline's events inside each task, and the scripts' calls. */
export const DETAILED_TRACE_CATEGORIES = [
  ...TASK_TRACE_CATEGORIES,
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
];

/** A task of the page's main thread. */
export interface PageTask {
  /** ms on the page's clock (`performance.now()`). */
  start: number;
  /** Wall time, ms. */
  wall: number;
  /** CPU time of the thread in the task, ms. */
  cpu: number;
}

/** The events of a trace file's text (`{ traceEvents }` or a bare array). */
export function traceEvents(json: string): TraceEvent[] {
  const parsed = JSON.parse(json) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** The request of the script whose path is `scriptPath`, on the page's main thread (a detailed trace's). */
export function scriptRequest(events: TraceEvent[], scriptPath: string): TraceEvent {
  const request = events.find(
    (event) =>
      event.name === 'ResourceSendRequest' &&
      event.args?.data?.url !== undefined &&
      new URL(event.args.data.url).pathname === scriptPath,
  );
  if (!request) throw new Error(`the trace holds no request of ${scriptPath}`);
  return request;
}

/**
 * The page's `performance.mark(name)`, on its main thread. A mark made at the end of a load is always in the
 * trace, where the first events of a new page's process may not be (its tracing starts a moment late).
 */
export function pageMark(events: TraceEvent[], name: string): TraceEvent {
  const mark = events.find((event) => event.name === name && event.cat?.includes('blink.user_timing'));
  if (!mark) throw new Error(`the trace holds no mark ${name}`);
  return mark;
}

/**
 * The outermost tasks of the page's main thread begun between `fromMs` and `toMs` on the page's clock, in
 * order; `mark` is a mark the page made at `markMs` on that clock, which places the page's clock in the trace's
 * and names the thread.
 */
export function pageTasks(
  events: TraceEvent[],
  mark: { name: string; atMs: number },
  fromMs: number,
  toMs: number,
): PageTask[] {
  const marked = pageMark(events, mark.name);
  const pageMs = (ts: number) => mark.atMs + (ts - marked.ts) / 1000;
  const tasks = events
    .filter(
      (event) =>
        event.name === 'ThreadControllerImpl::RunTask' &&
        event.ph === 'X' &&
        event.pid === marked.pid &&
        event.tid === marked.tid &&
        event.dur !== undefined &&
        event.tdur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts);
  const outermost: TraceEvent[] = [];
  for (const task of tasks) {
    const last = outermost.at(-1);
    if (last && task.ts < last.ts + (last.dur ?? 0)) continue;
    outermost.push(task);
  }
  return outermost
    .map((task) => ({
      start: pageMs(task.ts),
      wall: (task.dur ?? 0) / 1000,
      cpu: (task.tdur ?? 0) / 1000,
    }))
    .filter((task) => task.start >= fromMs && task.start <= toMs);
}
