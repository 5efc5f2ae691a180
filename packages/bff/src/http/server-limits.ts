/**
 * @module
 * What one slow or greedy client may hold of the BFF's HTTP server: its headers and its whole request must
 * arrive in time, a request body may not stall between bytes, and one client address (an IPv6 /64) holds at
 * most so many connections at once — the next one is answered `rate_limited` and closed, while other addresses
 * still connect. Behind trusted reverse proxies every connection comes from a proxy, so the same cap counts the
 * requests in flight per client address that the proxies forwarded (`X-Forwarded-For`, as `client-ip.ts`
 * reads it); the proxy should cap connections too (docs/deployment.md).
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { API_VERSION, type ApiErrorEnvelope } from '@esim-embed/shared';
import type { ServerLimitsConfig } from '../config/config-schema';
import { clientIp, limitedAddress } from '../security/client-ip';
import { newRequestId } from './request-context';

/** The limits of one server: the config's `server` section and how many proxies are trusted. */
export interface ServerLimits extends ServerLimitsConfig {
  trustedProxyHops: number;
  /**
   * How long one second of the timeouts lasts, in ms: 1,000 unless a test shortens it, so that its slow clients
   * are cut sooner (the timeouts keep their proportions; Node looks for late requests once per such second).
   */
  secondMs?: number | undefined;
}

/** The options `createServer` takes for these limits (timeouts are checked by Node's own parser). */
export function serverOptionsFor(limits: ServerLimits): ServerOptions {
  const second = limits.secondMs ?? 1_000;
  return {
    headersTimeout: limits.headersTimeoutSeconds * second,
    requestTimeout: limits.requestTimeoutSeconds * second,
    // How often Node looks for requests past their header or request timeout.
    connectionsCheckingInterval: second,
  };
}

/** Tracks the request each connection is receiving, for the body-idle timeout. */
export interface RequestTracking {
  /**
   * Called first for every request: remembers it as its connection's current one. False when the request is
   * not to be served: it came on a connection refused over its address's cap, or (behind trusted proxies) its
   * client has as many requests in flight as the cap allows — then it has been answered `rate_limited`.
   */
  track(request: IncomingMessage, response: ServerResponse): boolean;
}

/**
 * Apply the body-idle timeout and the per-address connection cap to `server` (created with
 * {@link serverOptionsFor}). Costs a map update per connection and a weak-map write per request (behind trusted
 * proxies, a map update per request instead of per connection).
 */
export function applyServerLimits(server: Server, limits: ServerLimits): RequestTracking {
  const current = new WeakMap<Socket, IncomingMessage>();
  // Node arms an inactivity timer on every socket; it fires only after that long without a byte either way.
  server.setTimeout(
    limits.bodyIdleTimeoutSeconds * (limits.secondMs ?? 1_000),
    function cutStalledBody(socket: Socket) {
      const request = current.get(socket);
      // A request still arriving (its body stalled), or a connection that never sent one: cut. A request the
      // app is working on (its body complete) is left alone, however long the upstream takes.
      if (request === undefined || !request.complete) socket.destroy();
    },
  );
  const refused =
    limits.trustedProxyHops === 0 ? capConnectionsPerAddress(server, limits.maxConnectionsPerAddress) : null;
  const admitted = limits.trustedProxyHops === 0 ? null : capRequestsPerForwardedAddress(limits);
  return {
    track(request, response) {
      if (refused?.has(request.socket)) {
        request.socket.destroy();
        return false;
      }
      current.set(request.socket, request);
      return admitted === null || admitted(request, response);
    },
  };
}

/**
 * Behind trusted proxies: at most `maxConnectionsPerAddress` requests in flight per forwarded client address;
 * the next is answered `rate_limited` at once. True when the request may be served.
 */
function capRequestsPerForwardedAddress(
  limits: ServerLimits,
): (request: IncomingMessage, response: ServerResponse) => boolean {
  const inFlight = new Map<string, number>();
  return function admitRequest(request, response) {
    const forwarded = request.headers['x-forwarded-for'];
    const address = limitedAddress(
      clientIp({
        socket: request.socket.remoteAddress,
        forwardedFor: Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
        trustedProxyHops: limits.trustedProxyHops,
      }),
    );
    const count = inFlight.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      const [head, body] = refusalParts();
      response.writeHead(429, head).end(body);
      return false;
    }
    inFlight.set(address, count + 1);
    response.once('close', () => {
      const left = (inFlight.get(address) ?? 1) - 1;
      if (left === 0) inFlight.delete(address);
      else inFlight.set(address, left);
    });
    return true;
  };
}

/** The headers and body of the `rate_limited` answer to a client over its address's cap. */
function refusalParts(): [Record<string, string>, string] {
  const requestId = newRequestId();
  const envelope: ApiErrorEnvelope = {
    error: { code: 'rate_limited', params: { reason: 'too_many_connections' } },
    meta: { requestId, apiVersion: API_VERSION },
  };
  const body = JSON.stringify(envelope);
  const head = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'Retry-After': '1',
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  return [head, body];
}

/** That answer as raw bytes, for a connection refused before any request. */
function refusal(): string {
  const [head, body] = refusalParts();
  const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 429 Too Many Requests\r\n${lines.join('')}\r\n${body}`;
}

/**
 * At most `max` open connections per client address (an IPv6 client by its /64). Answers the connections it
 * refused (whatever request they bring is never served).
 */
function capConnectionsPerAddress(server: Server, max: number): WeakSet<Socket> {
  const open = new Map<string, number>();
  const refused = new WeakSet<Socket>();
  server.on('connection', function countConnection(socket: Socket) {
    const address = limitedAddress(
      clientIp({ socket: socket.remoteAddress, forwardedFor: undefined, trustedProxyHops: 0 }),
    );
    const count = open.get(address) ?? 0;
    if (count >= max) {
      // Answered and closed at once; nothing of this connection is counted or served.
      refused.add(socket);
      socket.end(refusal());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return refused;
}
