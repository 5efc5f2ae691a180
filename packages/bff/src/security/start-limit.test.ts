/**
 * The starts' limit counted in memory: an address is refused past the widget's limit in its minute, even among a
 * flood of other addresses; travellers' first starts among 200,000 other addresses in a minute are let through;
 * a new minute of the clock forgets the counts; widgets count apart; the address of a raw request is read through
 * the trusted proxy hops, an IPv6 client by its /64.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type StartingWidget, StartLimit } from './start-limit';

const widget = (id: string, limit: number): StartingWidget => ({
  config: { id, limits: { sessionsPerIpPerMinute: limit } },
});

describe('StartLimit', () => {
  it('refuses an address past its limit in its minute, among a flood of other addresses', () => {
    let now = 120_000;
    const limit = new StartLimit({ trustedProxyHops: 0, now: () => now });
    const shop = widget('shop', 30);
    const taken = [];
    for (let index = 0; index < 200_000; index += 1) {
      limit.take(shop, `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);
      if (index % 5_000 === 0) taken.push(limit.take(shop, '203.0.113.9').allowed);
    }
    expect(taken.slice(0, 30).every(Boolean)).toBe(true);
    expect(taken.slice(30).some(Boolean)).toBe(false);
    const refused = limit.take(shop, '203.0.113.9');
    expect(refused).toMatchObject({ allowed: false, limit: 30, windowMs: 60_000, resetInMs: 60_000 });
    // A new minute: counted afresh.
    now += 60_000;
    expect(limit.take(shop, '203.0.113.9').allowed).toBe(true);
  });

  it('lets travellers’ first starts through among 200,000 other addresses in one minute', () => {
    const limit = new StartLimit({ trustedProxyHops: 0, now: () => 0 });
    const shop = widget('shop', 30);
    for (let index = 0; index < 200_000; index += 1) limit.take(shop, `2001:db8:${index.toString(16)}::/64`);
    const travellers = Array.from({ length: 1_000 }, (_, index) => `198.51.${index >> 8}.${index & 255}`);
    expect(travellers.filter((address) => !limit.take(shop, address).allowed)).toEqual([]);
  });

  it('cannot be aimed at a traveller: addresses that share its cells under a fixed hash do not lock it out', () => {
    // What an attacker computes offline when the cells come from a hash anyone can run: FNV-1a from its published
    // offset basis (the first cell) and from another fixed one (the second).
    const fixedCells = (text: string): [number, number] => {
      let [first, second] = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995];
      for (let index = 0; index < text.length; index += 1) {
        first = Math.imul(first ^ text.charCodeAt(index), 0x01000193);
        second = Math.imul(second ^ text.charCodeAt(index), 0x01000193);
      }
      return [(first >>> 0) & 0x7fff, ((second >>> 0) >>> 14) & 0x7fff];
    };
    const traveller = '198.51.100.7';
    const [travellerFirst, travellerSecond] = fixedCells(traveller);
    // From the attacker's /48: one /64 whose first cell is the traveller's, one whose second cell is.
    const ownAddresses = Array.from(
      { length: 1 << 16 },
      (_, index) => `2001:db8:1:${index.toString(16)}::/64`,
    );
    const onFirst = ownAddresses.find((address) => fixedCells(address)[0] === travellerFirst) as string;
    const onSecond = ownAddresses.find((address) => fixedCells(address)[1] === travellerSecond) as string;
    expect([onFirst, onSecond]).not.toContain(undefined);

    const limit = new StartLimit({ trustedProxyHops: 0, now: () => 0 });
    const shop = widget('shop', 30);
    for (let start = 0; start < 30; start += 1) {
      limit.take(shop, onFirst);
      limit.take(shop, onSecond);
    }
    expect(limit.take(shop, traveller).allowed).toBe(true);
  });

  it('counts widgets apart', () => {
    const limit = new StartLimit({ trustedProxyHops: 0, now: () => 0 });
    const [one, two] = [widget('one', 1), widget('two', 1)];
    expect(limit.take(one, '203.0.113.9').allowed).toBe(true);
    expect(limit.take(one, '203.0.113.9').allowed).toBe(false);
    expect(limit.take(two, '203.0.113.9').allowed).toBe(true);
  });

  it('reads a raw request’s address through the trusted hops, an IPv6 client by its /64', () => {
    const request = (remoteAddress: string, forwardedFor?: string) =>
      ({
        socket: { remoteAddress },
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      }) as unknown as IncomingMessage;
    const behindOne = new StartLimit({ trustedProxyHops: 1 });
    expect(behindOne.addressOf(request('10.0.0.2', '6.6.6.6, 203.0.113.9'))).toBe('203.0.113.9');
    expect(behindOne.addressOf(request('10.0.0.2', '2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:2::/64');
    const direct = new StartLimit({ trustedProxyHops: 0 });
    expect(direct.addressOf(request('203.0.113.7', '6.6.6.6'))).toBe('203.0.113.7');
  });
});
