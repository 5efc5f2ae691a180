/**
 * @module
 * Work repeated in the background every few seconds (the checkout and help-request watches): one run at a time
 * per instance — a slow store or upstream never stacks runs up — a failed run logged and tried again next time,
 * and a timer that does not keep the process alive.
 */
import type { Logger } from './logger';

/** A repeating background job. */
export interface BackgroundLoop {
  /** Start repeating every `intervalMs` (again: nothing more). */
  start(): void;
  /** Stop repeating (a run under way finishes). */
  close(): void;
}

/** The {@link BackgroundLoop} of `run`, logging a failed run as `failure` on `logger`. */
export function createBackgroundLoop(
  run: () => Promise<unknown>,
  options: { intervalMs: number; logger: Logger; failure: string },
): BackgroundLoop {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  return {
    start() {
      if (timer !== undefined) return;
      timer = setInterval(async function runInTheBackground() {
        if (running) return;
        running = true;
        try {
          await run();
        } catch (error) {
          options.logger.warn(options.failure, { cause: String(error) });
        } finally {
          running = false;
        }
      }, options.intervalMs);
      timer.unref();
    },
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
