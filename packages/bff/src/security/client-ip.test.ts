/**
 * The client IP: the socket unless proxies are trusted, and never an entry a client could have written.
 */
import { describe, expect, it } from 'vitest';
import { clientIp, limitedAddress } from './client-ip';

describe('client IP', () => {
  it('uses the socket and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientIp({ socket: '203.0.113.9', forwardedFor: '1.2.3.4', trustedProxyHops: 0 })).toBe(
      '203.0.113.9',
    );
    expect(clientIp({ socket: '::ffff:127.0.0.1', forwardedFor: undefined, trustedProxyHops: 0 })).toBe(
      '127.0.0.1',
    );
  });

  it('takes the entry the outermost trusted proxy appended', () => {
    // client 203.0.113.9 → proxy 10.0.0.1 → proxy 10.0.0.2 (socket) → BFF; the client forged "6.6.6.6".
    const forwardedFor = '6.6.6.6, 203.0.113.9, 10.0.0.1';
    expect(clientIp({ socket: '10.0.0.2', forwardedFor, trustedProxyHops: 2 })).toBe('203.0.113.9');
    expect(clientIp({ socket: '10.0.0.2', forwardedFor, trustedProxyHops: 1 })).toBe('10.0.0.1');
  });

  it('uses the socket, and says so, when the header holds fewer entries than trusted proxies', () => {
    const short: number[] = [];
    const onShortChain = (entries: number) => short.push(entries);
    // One proxy appended its entry where two are trusted: "6.6.6.6" may be the client's own.
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: '6.6.6.6', trustedProxyHops: 2, onShortChain })).toBe(
      '10.0.0.2',
    );
    expect(
      clientIp({ socket: '10.0.0.2', forwardedFor: '6.6.6.6, 10.0.0.1', trustedProxyHops: 3, onShortChain }),
    ).toBe('10.0.0.2');
    // No header came past no proxy (a probe inside the network): the socket, nothing to say.
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: undefined, trustedProxyHops: 2, onShortChain })).toBe(
      '10.0.0.2',
    );
    expect(short).toEqual([1, 2]);
  });

  it('falls back to the socket when the header is garbage', () => {
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: 'nonsense', trustedProxyHops: 1 })).toBe('10.0.0.2');
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: ' , ', trustedProxyHops: 1 })).toBe('10.0.0.2');
    expect(clientIp({ socket: undefined, forwardedFor: undefined, trustedProxyHops: 0 })).toBe('unknown');
  });

  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(limitedAddress('203.0.113.9')).toBe('203.0.113.9');
    const network = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
    ]) {
      expect(limitedAddress(address), address).toBe(network);
    }
    expect(limitedAddress('2001:db8:1:3::1')).not.toBe(network);
    expect(limitedAddress('::1')).toBe('0:0:0:0::/64');
    expect(limitedAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(limitedAddress('unknown')).toBe('unknown');
  });
});
