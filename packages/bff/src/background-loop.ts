/**
 * @module
 * The one way the BFF repeats work in the background (the checkout and help-request watches, reconciliation,
 * the catalog refresh, postponed placements, the webhook sender's claims, the stores' sweeps, a lease's
 * heartbeat): one run at a time per loop — a slow store or upstream never stacks runs up — a failed run logged
 * (or left quietly to the next one) and tried again next time, and a timer that does not keep the process alive.
 */
import type { Logger } from './logger';

/** A repeating background job. */
export interface BackgroundLoop {
  /** Start repeating every `intervalMs` (again: nothing more). */
  start(): void;
  /**
   * Run now, or as soon as the run under way ends when there is one (however often asked meanwhile: once).
   * Nothing when the loop is not started.
   */
  runSoon(): void;
  /** Stop repeating; resolves once a run under way has finished. */
  close(): Promise<void>;
}

export interface BackgroundLoopOptions {
  intervalMs: number;
  /** Run once at `start` too, not only after the first interval. */
  runAtStart?: boolean;
  /**
   * Where a failed run is reported, as `failure` with its cause, at `level` (default `warn`). Without them a run
   * handles its own failures, and one that throws is simply tried again at the next interval.
   */
  logger?: Logger;
  failure?: string;
  level?: 'warn' | 'error';
}

/** The {@link BackgroundLoop} of `run`. */
export function createBackgroundLoop(
  run: () => Promise<unknown>,
  options: BackgroundLoopOptions,
): BackgroundLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  function runOnce(): void {
    running = (async function runInTheBackground() {
      try {
        await run();
      } catch (error) {
        if (options.logger !== undefined && options.failure !== undefined) {
          options.logger[options.level ?? 'warn'](options.failure, { cause: String(error) });
        }
      } finally {
        running = undefined;
        if (again && timer !== undefined) {
          again = false;
          runOnce();
        }
      }
    })();
  }

  return {
    start() {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        if (running === undefined) runOnce();
      }, options.intervalMs);
      timer.unref();
      if (options.runAtStart === true && running === undefined) runOnce();
    },
    runSoon() {
      if (timer === undefined) return;
      if (running === undefined) runOnce();
      else again = true;
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
      again = false;
      await running;
    },
  };
}
