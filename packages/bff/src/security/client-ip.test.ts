/**
 * The client IP: the socket unless proxies are trusted, and never an entry a client could have written.
 */
import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip';

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

  it('falls back to the socket when the header is garbage', () => {
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: 'nonsense', trustedProxyHops: 1 })).toBe('10.0.0.2');
    expect(clientIp({ socket: '10.0.0.2', forwardedFor: ' , ', trustedProxyHops: 1 })).toBe('10.0.0.2');
    expect(clientIp({ socket: undefined, forwardedFor: undefined, trustedProxyHops: 0 })).toBe('unknown');
  });
});
