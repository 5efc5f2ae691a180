/**
 * The funnel's tallied steps (a widget opened, counted in memory) reach the store, where every instance reads
 * them: another instance on the same store sees none of them before this one adds them, and all of them after its
 * stop. A read by the tallying instance alone could not tell a flush from none.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { createFunnelCounters, utcDay } from './funnel-counters';

describe('tallied funnel steps', () => {
  it('are added to the store, for every instance to read, by the stop at the latest', async () => {
    const now = () => Date.parse('2026-11-29T12:00:00Z');
    const store = createMemoryStore({ now });
    const logger = createLogger({ level: 'error', write: () => {} });
    const options = { store, keptMs: 400 * 24 * 60 * 60_000, logger, now };
    const tallying = createFunnelCounters(options);
    const other = createFunnelCounters(options);
    const day = utcDay(now());
    const opened = async (counters: typeof other) =>
      (await counters.read(['shop'], day, day))[0]?.steps.widgetOpened;

    for (let view = 0; view < 3; view += 1) tallying.tally('shop', 'widgetOpened');
    // In memory: the tallying instance counts them, the other cannot see them yet (a page view writes nothing).
    expect(await opened(tallying)).toBe(3);
    expect(await opened(other)).toBe(0);

    await tallying.background.close();
    expect(await opened(other)).toBe(3);
    // Added once: the tallying instance no longer counts them twice.
    expect(await opened(tallying)).toBe(3);
  });
});
