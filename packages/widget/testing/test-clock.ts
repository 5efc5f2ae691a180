/**
 * @module
 * The widget's clock in component tests: vitest's fake timers (`setTimeout`, `setInterval` and `Date`), which also
 * move on by themselves as real time passes, so a wait the test does not drive still ends as it would. Where the
 * test waits for one of the widget's own timers (the status poll, a countdown, a `Retry-After`, a network retry),
 * it lets that time pass at once instead of sleeping through it — and while it does, the clock stops following
 * real time, so what the test measures or passes is the time it moved, however slow the machine.
 */
import { afterEach, beforeEach, vi } from 'vitest';

/** How much of the widget's time one step of {@link passTimeUntil} lets pass, in ms. */
const STEP_MS = 50;
/** How often, in ms of real time, the clock follows real time while the test does not move it. */
const FOLLOW_MS = 5;

/**
 * Puts every test of the calling file on the test clock (and back on real timers after it). Call it before the
 * file registers its page clean-up (`afterEach`): after-hooks run last registered first, so the widget is removed,
 * and its timers cleared, while the fake timers are still the ones it set.
 */
export function runOnTestClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({
      // Preact's effects, testing-library's polling and lazily loaded code still run in real time: the clock
      // follows real time (in small steps, so an effect waits little for it), and the test moves it on.
      shouldAdvanceTime: true,
      advanceTimeDelta: FOLLOW_MS,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Lets `ms` of the widget's time pass now: the timers due meanwhile run in order, each one's promises settled. */
export async function passTime(ms: number): Promise<void> {
  await withClockHeld(() => vi.advanceTimersByTimeAsync(ms));
}

/**
 * Runs `moving` (which moves the clock itself) with the clock no longer following real time, and then follows it
 * again: the real time the machine spends meanwhile adds nothing to the widget's, so a wait measured between two of
 * the widget's requests, or a lifetime the test passes, is what the test moved.
 */
async function withClockHeld<T>(moving: () => Promise<T>): Promise<T> {
  vi.setTimerTickMode('manual');
  try {
    return await moving();
  } finally {
    vi.setTimerTickMode('interval', FOLLOW_MS);
  }
}

/**
 * Lets the widget's time pass, in small steps, until `done()` holds; fails when it still does not after
 * `limitMs` of the widget's time. For waits on the widget's timers alone: a condition that also needs real
 * work (code still loading) should be waited for with a `find…` query first.
 */
export async function passTimeUntil(done: () => boolean, limitMs: number): Promise<void> {
  await withClockHeld(async () => {
    const start = Date.now();
    while (!done()) {
      if (Date.now() - start > limitMs) {
        throw new Error(`still not done after ${Date.now() - start} ms of the widget's time`);
      }
      await vi.advanceTimersByTimeAsync(STEP_MS);
    }
  });
}

/**
 * Lets the widget's time pass, in small steps, until `promise` settles (at most `limitMs` of it), and then answers
 * what it settled to: for a call that waits on the widget's timers (a `Retry-After`, a pause between retries).
 */
export async function passTimeUntilSettled<T>(promise: Promise<T>, limitMs: number): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  // Settling is looked at, not awaited, until it happened: a rejection is handled here and rethrown below.
  watched.catch(() => undefined);
  await passTimeUntil(() => settled, limitMs);
  return watched;
}
