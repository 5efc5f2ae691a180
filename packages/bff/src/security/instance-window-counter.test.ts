/**
 * The instance's own fixed-window counters: hits of a name within one minute of the clock add up, the next minute
 * starts afresh, and a flood of ever new names keeps the memory bounded without forgetting a name still counting.
 */
import { describe, expect, it } from 'vitest';
import { InstanceWindowCounter } from './instance-window-counter';

describe('an instance window counter', () => {
  it('counts a name within a window of the clock, and starts again in the next', () => {
    let now = 1_800_000_000_000 + 15_000;
    const counter = new InstanceWindowCounter({ windowMs: 60_000, now: () => now });
    expect(counter.hit('203.0.113.9')).toEqual({ count: 1, resetInMs: 45_000 });
    expect(counter.hit('203.0.113.9')).toEqual({ count: 2, resetInMs: 45_000 });
    expect(counter.hit('198.51.100.7').count).toBe(1);
    now += 45_000;
    expect(counter.hit('203.0.113.9')).toEqual({ count: 1, resetInMs: 60_000 });
  });

  it('holds at most ten thousand names: ended windows go first, then the oldest', () => {
    let now = 1_800_000_000_000;
    const counter = new InstanceWindowCounter({ windowMs: 60_000, now: () => now });
    for (let index = 0; index < 10_000; index += 1) counter.hit(`old-${index}`);
    now += 60_000;
    counter.hit('busy');
    counter.hit('busy');
    for (let index = 0; index < 9_999; index += 1) counter.hit(`new-${index}`);
    // The map was full of ended windows: they went, and `busy` kept its count.
    expect(counter.hit('busy').count).toBe(3);
    // Full of this window's names, a new one pushes out the oldest (`busy`, first in).
    counter.hit('one-more');
    expect(counter.hit('busy').count).toBe(1);
  });
});
