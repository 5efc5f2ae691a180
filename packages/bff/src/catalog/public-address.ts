/**
 * @module
 * Whether an IP address is a public one the BFF may connect to for content named by someone else (the upstream
 * account's logo): classified by `ipaddr.js`'s special-purpose ranges, where only `unicast` is public. An IPv6
 * address that carries an IPv4 one — IPv4-mapped and IPv4-compatible (`::ffff:a.b.c.d`, `::a.b.c.d`), SIIT
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`), 6to4 (`2002::/16`) — is as public as the IPv4 address it
 * reaches; other IPv6 addresses must be global unicast (`2000::/3`).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The global unicast IPv6 space: everything outside it is reserved or unassigned. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** The IPv4 address an IPv6 one carries, when it is of a form that reaches that IPv4 address; else null. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const part = (index: number) => address.parts[index] ?? 0;
  const ipv4At = (high: number, low: number) =>
    new ipaddr.IPv4([part(high) >> 8, part(high) & 0xff, part(low) >> 8, part(low) & 0xff]);
  const tail = () => ipv4At(6, 7);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return tail();
    case 'rfc6052':
      // 64:ff9b::/96 carries the address in its last 32 bits; the local-use 64:ff9b:1::/48 may place it
      // elsewhere, so it carries nothing this can check (and is refused).
      return [2, 3, 4, 5].every((index) => part(index) === 0) ? tail() : null;
    case '6to4':
      return ipv4At(1, 2);
    default:
      // IPv4-compatible (::a.b.c.d, deprecated): 96 zero bits, then the IPv4 address.
      return [0, 1, 2, 3, 4, 5].every((index) => part(index) === 0) ? tail() : null;
  }
}

/**
 * Whether `address` (an IP address, as a resolver answers it or a URL names it) is public: never this host,
 * private or unique-local networks, link-local (cloud metadata), CGNAT, site-local, multicast, reserved,
 * documentation or benchmarking ranges, nor an IPv6 form of any of those.
 *
 * @example
 * isPublicAddress('93.184.216.34'); // true
 * isPublicAddress('64:ff9b::7f00:1'); // false: NAT64 for 127.0.0.1
 */
export function isPublicAddress(address: string): boolean {
  // Node's own parser first: ipaddr.js also takes forms (`0x7f.1`) no resolver answers.
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried !== null) return carried.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST);
}
