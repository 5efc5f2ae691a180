/**
 * @module
 * Fetching the upstream account's logo for the BFF to serve from its own origin, as an attacker would want it
 * not to be: over HTTPS only, whatever the upstream's own scheme; to public addresses only — the name is
 * resolved once, every address it resolves to is checked (`public-address.ts`), and the socket connects to
 * the checked address and is checked again once connected, so no second resolution can point it elsewhere;
 * redirects only within the same origin (a few, each hop held to the same rules); a timeout, a size cap, and
 * the bytes accepted only when they are a PNG, JPEG or GIF (the contract's types) by their magic numbers,
 * whatever `Content-Type` the host claims.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import { isPublicAddress } from './public-address';

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
   * Tests only (never from config): an image host on this machine — the addresses besides public ones the
   * fetch may connect to, and the CA of its certificate. HTTPS and the redirect rule hold all the same.
   */
  testHost?: LogoTestHost | undefined;
}

/** A local HTTPS image host a test lets the logo fetch reach. */
export interface LogoTestHost {
  addresses: readonly string[];
  /** PEM of the CA that signed the host's certificate. */
  ca: string;
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

/** Whether the fetch may connect to `address`. */
const allowed = (address: string, testHost: LogoTestHost | undefined) =>
  isPublicAddress(address) || testHost?.addresses.includes(address) === true;

/** The one address of `hostname` to connect to: every address it resolves to must be allowed. */
async function checkedAddress(hostname: string, testHost: LogoTestHost | undefined): Promise<string> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  const addresses =
    isIP(literal) !== 0
      ? [literal]
      : (
          await dnsLookup(literal, { all: true }).catch((cause: unknown) => {
            throw new LogoUnavailable('the logo host could not be resolved', { cause });
          })
        ).map((entry) => entry.address);
  const [first] = addresses;
  if (first === undefined || !addresses.every((address) => allowed(address, testHost))) {
    throw new LogoUnavailable('the logo host is (or resolves to) a non-public address');
  }
  return first;
}

/**
 * undici's connector for logo hosts: TLS to the address the name was checked to resolve to (the certificate
 * still checked against the name), and the connected socket's peer checked once more.
 */
function checkedConnector(options: LogoFetchOptions): buildConnector.connector {
  return function connectToCheckedAddress({ hostname, port }, callback) {
    checkedAddress(hostname, options.testHost).then(
      (address) => {
        const literal = isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
        const socket: TLSSocket = tlsConnect({
          host: address,
          port: Number(port) || 443,
          // SNI and the certificate's name check use the URL's name; a literal is checked as the address.
          ...(literal ? {} : { servername: hostname }),
          ALPNProtocols: ['http/1.1'],
          ...(options.testHost === undefined ? {} : { ca: options.testHost.ca }),
        });
        socket.setTimeout(options.timeoutMs, () =>
          socket.destroy(new LogoUnavailable('the logo host timed out')),
        );
        // The connector answers once: an error before the handshake ends it, later ones are undici's to see.
        const failed = (error: Error) => callback(error, null);
        socket.once('error', failed);
        socket.once('secureConnect', () => {
          socket.setTimeout(0);
          socket.off('error', failed);
          const peer = socket.remoteAddress;
          if (peer === undefined || !allowed(peer, options.testHost)) {
            socket.destroy();
            callback(new LogoUnavailable('the logo connection reached a non-public address'), null);
            return;
          }
          callback(null, socket);
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}

/** One agent per way of fetching (the production one, and one per test host). */
const agents = new Map<LogoTestHost | undefined, Agent>();
function agentFor(options: LogoFetchOptions): Dispatcher {
  let agent = agents.get(options.testHost);
  if (agent === undefined) {
    agent = new Agent({ connections: 16, connect: checkedConnector(options) });
    agents.set(options.testHost, agent);
  }
  return agent;
}

/** The URL to request for `value` (absolute, HTTPS, no credentials), or why not. */
function requestTarget(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new LogoUnavailable('the logo URL is not a URL');
  }
  if (url.username || url.password) throw new LogoUnavailable('the logo URL carries credentials');
  if (url.protocol !== 'https:') throw new LogoUnavailable(`the logo URL is not HTTPS (${url.protocol})`);
  return url;
}

/**
 * Fetch the logo at `url` (an account's `brand.logoUrl`): its bytes when they are a PNG, JPEG or GIF of at
 * most `maxBytes`, else {@link LogoUnavailable} saying why.
 *
 * @example
 * const logo = await fetchLogo('https://cdn.acme.example/logo.png', { timeoutMs: 5000, maxBytes: 1 << 20 });
 */
export async function fetchLogo(url: string, options: LogoFetchOptions): Promise<LogoImage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target = requestTarget(url);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await agentFor(options)
      .request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
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
      const next = requestTarget(location, target);
      // Another host (or port) is another server the upstream's account does not name: never followed.
      if (next.origin !== target.origin) throw new LogoUnavailable('the logo redirects to another host');
      target = next;
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
