/** The page's main-thread tasks read from a Chromium trace: which tasks count, and their wall and CPU times. */
import { describe, expect, it } from 'vitest';
import { pageTasks, type TraceEvent, traceEvents } from './page-trace';

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

/** The page made the mark at 1,000 ms on its clock, 900,000 µs into the trace: the trace's 0 is its 100 ms. */
const MARK = { name: 'esim-bench-collect', atMs: 1000 };

const EVENTS: TraceEvent[] = [
  // The page's parse, then its first layout, before the script has arrived (at 300 ms on the page's clock).
  task(0, 90_000, 30_000),
  task(100_000, 120_000, 60_000),
  // The loader's evaluation, with a task nested inside it.
  task(260_000, 40_000, 35_000),
  task(270_000, 10_000, 9_000),
  // Another thread's task is not the page's.
  task(300_000, 500_000, 400_000, OTHER_THREAD),
  task(400_000, 70_000, 20_000),
  { name: MARK.name, cat: 'blink.user_timing', ph: 'R', ts: 900_000, ...MAIN },
  // After the page was read.
  task(950_000, 80_000, 80_000),
];

describe("the page's tasks", () => {
  it("are the outermost tasks of the marked thread, on the page's clock, with their wall and CPU times", () => {
    expect(pageTasks(EVENTS, MARK, 0, 2000)).toEqual([
      { start: 100, wall: 90, cpu: 30 },
      { start: 200, wall: 120, cpu: 60 },
      { start: 360, wall: 40, cpu: 35 },
      { start: 500, wall: 70, cpu: 20 },
      { start: 1050, wall: 80, cpu: 80 },
    ]);
  });

  it('are held to a window: none begun before the script arrived (they run none of its code) or after the read', () => {
    expect(pageTasks(EVENTS, MARK, 300, 1000)).toEqual([
      { start: 360, wall: 40, cpu: 35 },
      { start: 500, wall: 70, cpu: 20 },
    ]);
  });

  it('are read from a trace file in either of its shapes, and a trace without the mark says so', () => {
    expect(traceEvents(JSON.stringify({ traceEvents: EVENTS }))).toEqual(EVENTS);
    expect(traceEvents(JSON.stringify(EVENTS))).toEqual(EVENTS);
    expect(() => pageTasks(EVENTS, { name: 'other', atMs: 0 }, 0, 1)).toThrow(
      'the trace holds no mark other',
    );
  });
});
