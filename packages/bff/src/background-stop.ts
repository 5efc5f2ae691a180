/**
 * @module
 * How a stop of the BFF waits for its background work: every part asked to stop at once, then waited for — for a
 * while only, so that a run held up by a slow upstream never keeps the process past its forced exit. What is still
 * running when the wait ends is named in a warning (its state is crash-safe: the next start takes it up).
 */
import type { Logger } from './logger';

/** How a stop's time is shared, in ms from the signal. */
export interface StopTimeline {
  /** The requests under way may finish until then; their connections are cut after it. */
  drainMs: number;
  /** Then the background runs under way are waited for this long at most. */
  backgroundWaitMs: number;
  /** The process exits then, whatever is still running. */
  exitMs: number;
}

/**
 * The stop's timeline for the config's `server.stopSeconds` (10 s by default: 4 s for the requests, then 5 s for
 * the background work, the exit at 10 s), so that each wait fits before the forced exit, with time to close the
 * store after them.
 */
export function stopTimeline(stopSeconds: number): StopTimeline {
  return { drainMs: stopSeconds * 400, backgroundWaitMs: stopSeconds * 500, exitMs: stopSeconds * 1_000 };
}

/**
 * A part of the background work a feature adds (a watch, a sender, a sweep): started with the BFF's workers,
 * stopped at its close.
 */
export interface BackgroundWork {
  /** Its name in the stop's warning. */
  name: string;
  /** Absent: nothing to start (it runs when there is work, as a postponed placement). */
  start?: (() => void) | undefined;
  /** Stops it; resolves once its run under way has finished. */
  close(): Promise<void>;
}

/** Start every part of `work` that starts. */
export function startBackground(work: readonly BackgroundWork[]): void {
  for (const part of work) part.start?.();
}

/**
 * Ask every part to stop at once (the wait is the longest run's, not their sum), then wait up to `waitMs`;
 * answers the names of those still running then (none: all stopped). A part whose stop fails counts as stopped
 * (its failure is logged).
 */
export async function awaitBackgroundStop(
  parts: readonly BackgroundWork[],
  options: { waitMs: number; logger: Logger },
): Promise<string[]> {
  const running = new Set(parts.map((part) => part.name));
  const allStopped = Promise.all(
    parts.map((part) =>
      part.close().then(
        () => running.delete(part.name),
        (error: unknown) => {
          running.delete(part.name);
          options.logger.warn('background work failed as it stopped', {
            work: part.name,
            cause: String(error),
          });
        },
      ),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, options.waitMs);
  });
  try {
    await Promise.race([allStopped, waited]);
  } finally {
    clearTimeout(timer);
  }
  const still = [...running];
  if (still.length > 0) {
    options.logger.warn('background work still running at the stop: going on without it', {
      running: still,
      waitedMs: options.waitMs,
    });
  }
  return still;
}
