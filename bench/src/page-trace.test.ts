/** The page's main-thread tasks read from a Chromium trace: which tasks count, and their wall and CPU times. */
import { describe, expect, it } from 'vitest';
import { type TraceEvent, tasksAfterScript, traceEvents } from './page-trace';

const MAIN = { pid: 10, tid: 10 };
const OTHER_THREAD = { pid: 10, tid: 11 };

/** A task of `thread` at `ts` µs lasting `dur` µs, `tdur` µs of them on the CPU. */
const task = (ts: number, dur: number, tdur: number, thread = MAIN): TraceEvent => ({
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  ts,
  dur,
  tdur,
  ...thread,
});

const EVENTS: TraceEvent[] = [
  // The page's parse, which finds the script tag and requests it from inside its task.
  task(0, 90_000, 30_000),
  {
    name: 'ResourceSendRequest',
    ph: 'I',
    ts: 50_000,
    ...MAIN,
    args: { data: { url: 'http://127.0.0.1:4000/widget.js' } },
  },
  // The page's first layout, while the script is on its way.
  task(100_000, 120_000, 60_000),
  // The loader's evaluation, once the script has arrived (at 250 ms), with a task nested inside it.
  task(260_000, 40_000, 35_000),
  task(270_000, 10_000, 9_000),
  // Another thread's task is not the page's.
  task(300_000, 500_000, 400_000, OTHER_THREAD),
  task(400_000, 70_000, 20_000),
];

describe("the page's tasks", () => {
  it('counts from the request of the script the outermost tasks of the thread that requested it', () => {
    expect(tasksAfterScript(EVENTS, '/widget.js')).toEqual([
      { start: 50, wall: 120, cpu: 60 },
      { start: 210, wall: 40, cpu: 35 },
      { start: 350, wall: 70, cpu: 20 },
    ]);
  });

  it("leaves out the tasks begun before the script had arrived, which run none of the widget's code", () => {
    expect(tasksAfterScript(EVENTS, '/widget.js', 200)).toEqual([
      { start: 210, wall: 40, cpu: 35 },
      { start: 350, wall: 70, cpu: 20 },
    ]);
  });

  it('reads a trace file in either of its shapes, and says when the script was never requested', () => {
    expect(traceEvents(JSON.stringify({ traceEvents: EVENTS }))).toEqual(EVENTS);
    expect(traceEvents(JSON.stringify(EVENTS))).toEqual(EVENTS);
    expect(() => tasksAfterScript(EVENTS, '/other.js')).toThrow('the trace holds no request of /other.js');
  });
});
