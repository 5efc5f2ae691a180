import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackgroundLoop } from './background-loop';
import { createLogger } from './logger';

/** A run that stays under way until `finish` is called. */
function heldRun() {
  const started: Array<() => void> = [];
  const run = vi.fn(() => new Promise<void>((resolve) => started.push(resolve)));
  return { run, finish: () => started.shift()?.() };
}

describe('the background loop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval, one run at a time: a tick during a run is skipped', async () => {
    const { run, finish } = heldRun();
    const loop = createBackgroundLoop(run, { intervalMs: 1_000 });
    loop.start();
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await loop.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs at start when asked, and once more after the run under way when asked to run soon', async () => {
    const { run, finish } = heldRun();
    const loop = createBackgroundLoop(run, { intervalMs: 60_000, runAtStart: true });
    loop.runSoon();
    expect(run).toHaveBeenCalledTimes(0);
    loop.start();
    expect(run).toHaveBeenCalledTimes(1);
    loop.runSoon();
    loop.runSoon();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    await loop.close();
  });

  it('logs a failed run and tries again at the next interval; close waits for the run under way', async () => {
    const logger = createLogger({ write: () => undefined });
    const warn = vi.spyOn(logger, 'warn');
    let calls = 0;
    const loop = createBackgroundLoop(
      async () => {
        calls++;
        if (calls === 1) throw new Error('store away');
      },
      { intervalMs: 1_000, logger, failure: 'sweep failed' },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(warn).toHaveBeenCalledWith('sweep failed', { cause: 'Error: store away' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);

    const { run, finish } = heldRun();
    const held = createBackgroundLoop(run, { intervalMs: 1_000, runAtStart: true });
    held.start();
    let closed = false;
    const closing = held.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(closed).toBe(true);
    await loop.close();
  });
});
