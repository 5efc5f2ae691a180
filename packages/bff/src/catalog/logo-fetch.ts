/**
 * @module
 * Fetching the upstream account's logo for the BFF to serve from its own origin, as an attacker would want it
 * not to be: HTTPS only, to public addresses only (the name is resolved and checked before connecting, so a
 * logo URL cannot reach the BFF's own network), a few redirects each held to the same rules, a timeout, a size
 * cap, and the bytes accepted only when they are a PNG, JPEG or GIF (the contract's types) by their magic
 * numbers, whatever `Content-Type` the host claims.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, type Dispatcher } from 'undici';

/** A logo the BFF may serve: its bytes and their type, sniffed from the bytes. */
export interface LogoImage {
  bytes: Uint8Array;
  contentType: LogoContentType;
}

/** The contract's logo types. */
export type LogoContentType = 'image/png' | 'image/jpeg' | 'image/gif';

/** How a logo is fetched. */
export interface LogoFetchOptions {
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  /** A larger logo is refused. */
  maxBytes: number;
  /**
   * A local sandbox upstream (plain HTTP on loopback) serves its images the same way: a logo on a loopback
   * host is then fetched over plain HTTP from that host. Never for any other upstream or any other host.
   */
  localUpstream: boolean;
}

/** Why a logo could not be used (logged; the widget shows the brand's name instead). */
export class LogoUnavailable extends Error {
  override readonly name = 'LogoUnavailable';
}

const MAX_REDIRECTS = 3;

/** PNG, JPEG and GIF by their first bytes. */
const SIGNATURES: readonly [LogoContentType, readonly number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]],
];

/** The type of `bytes` by their magic number, or null when they are not a PNG, JPEG or GIF. */
export function sniffLogoType(bytes: Uint8Array): LogoContentType | null {
  for (const [type, signature] of SIGNATURES) {
    if (signature.every((byte, index) => bytes[index] === byte)) return type;
  }
  return null;
}

/** Addresses a logo fetch never connects to: this host, private networks, link-local (cloud metadata), CGNAT. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP) is one a logo may be fetched from. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL's host is this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** `dns.lookup` that fails for a name resolving to any non-public address (checked where the socket connects). */
function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused !== undefined || addresses.length === 0) {
      return callback(new LogoUnavailable('the logo host resolves to a non-public address'), []);
    }
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

let publicAgent: Agent | undefined;
let localAgent: Agent | undefined;

/** Connections that reach public addresses only; for a logo beside a local upstream, loopback ones. */
function agentFor(local: boolean): Dispatcher {
  if (local) {
    localAgent ??= new Agent({ connections: 4 });
    return localAgent;
  }
  publicAgent ??= new Agent({ connections: 16, connect: { lookup: publicOnlyLookup } });
  return publicAgent;
}

/** The URL to request for `value` and whether it is a loopback logo beside a local upstream, or why not. */
function requestTarget(value: string, options: LogoFetchOptions): { url: URL; local: boolean } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LogoUnavailable('the logo URL is not a URL');
  }
  if (url.username || url.password) throw new LogoUnavailable('the logo URL carries credentials');
  const local = options.localUpstream && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    throw new LogoUnavailable(`the logo URL is not HTTPS (${url.protocol})`);
  }
  if (local) {
    url.protocol = 'http:';
    return { url, local };
  }
  // An address literal is not resolved by the lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !isPublicAddress(literal)) {
    throw new LogoUnavailable('the logo URL names a non-public address');
  }
  return { url, local };
}

/**
 * Fetch the logo at `url` (an account's `brand.logoUrl`): its bytes when they are a PNG, JPEG or GIF of at
 * most `maxBytes`, else {@link LogoUnavailable} saying why.
 *
 * @example
 * const logo = await fetchLogo('https://cdn.acme.example/logo.png', { timeoutMs: 5000, maxBytes: 1 << 20, localUpstream: false });
 */
export async function fetchLogo(url: string, options: LogoFetchOptions): Promise<LogoImage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target = requestTarget(url, options);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await agentFor(target.local)
      .request({
        origin: target.url.origin,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        headers: { accept: 'image/png, image/jpeg, image/gif', 'user-agent': 'esim-embed-bff' },
        signal,
      })
      .catch((cause: unknown) => {
        if (cause instanceof LogoUnavailable) throw cause;
        const reason = signal.aborted ? 'timed out' : 'could not be reached';
        throw new LogoUnavailable(`the logo host ${reason}`, { cause });
      });
    const location = answer.headers.location;
    if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === 'string') {
      await answer.body.dump();
      if (redirects >= MAX_REDIRECTS) throw new LogoUnavailable('the logo redirects too often');
      target = requestTarget(new URL(location, target.url).href, options);
      continue;
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new LogoUnavailable(`the logo host answered ${answer.statusCode}`);
    }
    const bytes = await readCapped(answer.body, options.maxBytes, answer.headers['content-length']);
    const contentType = sniffLogoType(bytes);
    if (contentType === null) throw new LogoUnavailable('the logo is not a PNG, JPEG or GIF');
    return { bytes, contentType };
  }
}

/** The body, refused as soon as it is larger than `maxBytes` (a declared length is looked at first). */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  declared: string | string[] | undefined,
): Promise<Uint8Array> {
  const tooLarge = () => new LogoUnavailable(`the logo is larger than ${maxBytes} bytes`);
  if (typeof declared === 'string' && Number(declared) > maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
  } catch (cause) {
    if (cause instanceof LogoUnavailable) throw cause;
    throw new LogoUnavailable('the logo download broke off', { cause });
  }
  return new Uint8Array(Buffer.concat(chunks));
}
