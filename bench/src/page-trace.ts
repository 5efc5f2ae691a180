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

/** What the bench records of every load: each task of each thread, and the page's requests. */
export const TASK_TRACE_CATEGORIES = ['toplevel', 'devtools.timeline'];

/** What `BENCH_TRACE_DIR` records: also the timeline's events inside each task, and the scripts' calls. */
export const DETAILED_TRACE_CATEGORIES = [
  ...TASK_TRACE_CATEGORIES,
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
];

/** A task of the page's main thread. */
export interface PageTask {
  /** ms since the page requested the script. */
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

/** The request of the script whose path is `scriptPath`: on the page's main thread, which sent it. */
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
 * The tasks of the page's main thread begun `afterMs` or more after `scriptPath` was requested (from when the
 * script had arrived: a task begun before runs none of its code), outermost only, in order.
 */
export function tasksAfterScript(events: TraceEvent[], scriptPath: string, afterMs = 0): PageTask[] {
  const request = scriptRequest(events, scriptPath);
  const tasks = events
    .filter(
      (event) =>
        event.name === 'ThreadControllerImpl::RunTask' &&
        event.ph === 'X' &&
        event.pid === request.pid &&
        event.tid === request.tid &&
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
    .filter((task) => task.ts >= request.ts + afterMs * 1000)
    .map((task) => ({
      start: (task.ts - request.ts) / 1000,
      wall: (task.dur ?? 0) / 1000,
      cpu: (task.tdur ?? 0) / 1000,
    }));
}
