/**
 * @module
 * The client's IP address for rate limits: the socket's peer, or — behind a configured number of trusted
 * reverse proxies — the `X-Forwarded-For` entry that the outermost trusted proxy appended. A raw header
 * would let anyone rotate IPs at will, so entries to the left of the trusted ones are never used, and a header
 * with fewer entries than trusted proxies (some entry of it is the client's own) is not used at all. Limits
 * count an IPv6 client by its /64 (one subscriber's network), as they count an IPv4 client by its address.
 * The same trusted proxies also say which scheme the client used (`X-Forwarded-Proto`), for the BFF's own origin.
 */
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { Logger } from '../logger';

/** The socket peer's address when the app runs under `@hono/node-server`; undefined under `app.request()`. */
export function socketAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * The client IP given the socket peer, the `X-Forwarded-For` header and how many proxies are trusted.
 *
 * With `trustedProxyHops` N the socket is the N-th (innermost) proxy, and each proxy appended the address
 * it saw: the client is the N-th entry from the right. A header of fewer than N entries did not come through N
 * proxies, so its leftmost entry may be one the client wrote: the socket's address counts instead, and
 * `onShortChain` is told (the setting counts more proxies than there are). No header at all is a request that
 * came past the proxies (a probe from inside the network): the socket too, nothing told.
 *
 * @example
 * clientIp({ socket: '10.0.0.2', forwardedFor: '203.0.113.9, 10.0.0.1', trustedProxyHops: 2 }); // '203.0.113.9'
 * clientIp({ socket: '10.0.0.2', forwardedFor: '6.6.6.6', trustedProxyHops: 2 }); // '10.0.0.2'
 */
export function clientIp(input: {
  socket: string | undefined;
  forwardedFor: string | undefined;
  trustedProxyHops: number;
  /** Told the number of entries of a header shorter than `trustedProxyHops`. */
  onShortChain?: ((entries: number) => void) | undefined;
}): string {
  if (input.trustedProxyHops !== 0 && input.forwardedFor !== undefined) {
    const found = entryFromRight(input.forwardedFor, input.trustedProxyHops);
    if (typeof found === 'string') {
      const client = normalizeIp(found);
      if (client !== undefined) return client;
    } else if (found > 0) input.onShortChain?.(found);
  }
  return normalizeIp(input.socket) ?? 'unknown';
}

/**
 * The `hops`-th non-empty entry of an `X-Forwarded-For` header from the right (trimmed), or the number of its
 * entries when it has fewer: read from the end without splitting the header (it is read on every request).
 */
function entryFromRight(header: string, hops: number): string | number {
  let seen = 0;
  let end = header.length;
  for (let at = header.length - 1; at >= -1; at -= 1) {
    if (at !== -1 && header.charCodeAt(at) !== COMMA) continue;
    const entry = header.slice(at + 1, end).trim();
    end = at;
    if (entry === '') continue;
    seen += 1;
    if (seen === hops) return entry;
  }
  return seen;
}

const COMMA = 0x2c;

/**
 * The scheme the client used, as the trusted proxy next to the BFF says (`X-Forwarded-Proto`: its last entry,
 * the one that proxy set); undefined without trusted proxies — the header is then anyone's — or a value other
 * than `http` or `https`. A proxy that ends TLS forwards plain HTTP: without it, a page served by the BFF at
 * `https://bff.example.com` would be taken for `http://bff.example.com`.
 *
 * @example
 * forwardedScheme({ forwardedProto: 'https', trustedProxyHops: 1 }); // 'https'
 * forwardedScheme({ forwardedProto: 'https', trustedProxyHops: 0 }); // undefined
 */
export function forwardedScheme(input: {
  forwardedProto: string | undefined;
  trustedProxyHops: number;
}): 'http' | 'https' | undefined {
  if (input.trustedProxyHops === 0 || input.forwardedProto === undefined) return undefined;
  const scheme = input.forwardedProto.split(',').at(-1)?.trim().toLowerCase();
  return scheme === 'http' || scheme === 'https' ? scheme : undefined;
}

/** The origin a request addressed: its URL's, in the scheme the client used when a trusted proxy said it. */
export function ownOrigin(url: string, scheme: 'http' | 'https' | undefined): string {
  const own = new URL(url);
  if (scheme !== undefined) own.protocol = `${scheme}:`;
  return own.origin;
}

/** How often at most {@link proxySettingWarning} writes its line. */
export const PROXY_SETTING_WARNING_MS = 5 * 60_000;

/**
 * The `onShortChain` of {@link clientIp} for an app: a warning that `trustedProxyHops` counts more proxies than
 * requests come through, at most once per {@link PROXY_SETTING_WARNING_MS} (every request of a misconfigured
 * deployment has a short header: a line each would flood the log), naming how many were seen since the last.
 */
export function proxySettingWarning(
  logger: Logger,
  trustedProxyHops: number,
  now: () => number = Date.now,
): (entries: number) => void {
  let lastAtMs = Number.NEGATIVE_INFINITY;
  let unreported = 0;
  return function warnOfProxySetting(entries) {
    unreported += 1;
    const nowMs = now();
    if (nowMs - lastAtMs < PROXY_SETTING_WARNING_MS) return;
    logger.warn(
      'X-Forwarded-For holds fewer entries than trustedProxyHops: the proxy setting is wrong (set trustedProxyHops ' +
        'to the number of proxies in front of the BFF); the socket address is used instead',
      { trustedProxyHops, forwardedEntries: entries, requestsSinceLastWarning: unreported },
    );
    lastAtMs = nowMs;
    unreported = 0;
  };
}

/** An IP address without an IPv4-mapped prefix, or undefined when it is not an address at all. */
function normalizeIp(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bare = value.startsWith('::ffff:') && isIP(value.slice(7)) === 4 ? value.slice(7) : value;
  return isIP(bare) === 0 ? undefined : bare.toLowerCase();
}

/**
 * What a per-IP limit counts: an IPv4 address itself, an IPv6 address by its /64 network. One customer or host
 * is routinely given a whole /64, so counting single IPv6 addresses would give it 2^64 fresh budgets.
 *
 * @example
 * limitedAddress('2001:db8:1:2:aaaa::1'); // '2001:db8:1:2::/64'
 */
export function limitedAddress(ip: string): string {
  // Only an IPv6 address holds a colon: an IPv4 one (a start's, read on every page view) is not parsed again.
  if (!ip.includes(':') || isIP(ip) !== 6) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (an embedded IPv4 tail as two groups). */
function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.toLowerCase().split('::') as [string, string | undefined];
  const groups = (part: string | undefined) =>
    part === undefined || part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const front = groups(head);
  const back = groups(tail);
  const middle = tail === undefined ? [] : Array(8 - front.length - back.length).fill('0');
  return [...front, ...middle, ...back].map((group) => Number.parseInt(group, 16).toString(16));
}
