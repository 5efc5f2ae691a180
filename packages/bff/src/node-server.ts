/**
 * @module
 * Serving a BFF over Node's HTTP server (`@hono/node-server`) and stopping it cleanly — the public app and the
 * operations app (`operations-app.ts`) — used by the server entry, the root `pnpm start` and the tests (port 0
 * picks a free port).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { API_VERSION, type ApiErrorEnvelope } from '@esim-embed/shared';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { stopTimeline } from './background-stop';
import type { Bff } from './bff';
import { ServerLimitsConfigSchema } from './config/config-schema';
import type { AppEnv } from './http/app-env';
import { newRequestId } from './http/request-context';
import { applyServerLimits, type ServerLimits, serverOptionsFor } from './http/server-limits';

/** A listening BFF. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` (or the given host): where to reach it from this machine. */
  url: string;
  /** The address it is bound to, as the system reports it: `http://0.0.0.0:8787`, `http://[::1]:8787`. */
  boundUrl: string;
  port: number;
  /** Stop accepting connections, close idle ones and release the BFF's resources. */
  close(): Promise<void>;
}

export interface ServeOptions {
  port?: number;
  hostname?: string;
  /**
   * How long a stop lets the requests under way finish before it cuts their connections (ms). Default: 40 % of
   * the config's `server.stopSeconds` (4 s), so that the background work's own wait still fits before the
   * process's forced exit (`background-stop.ts`).
   */
  drainMs?: number;
}

/** How the BFF is served: where, and what one client may hold (the config's `server` and `trustedProxyHops`). */
export interface ServeBffOptions extends ServeOptions {
  /** Default: the config's defaults, no trusted proxy. */
  limits?: ServerLimits;
}

/** Listen with `bff.app` on `hostname:port` (default 127.0.0.1 and a free port). */
export async function serveBff(bff: Bff, options: ServeBffOptions = {}): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const limits = options.limits ?? { ...ServerLimitsConfigSchema.parse({}), trustedProxyHops: 0 };
  const appListener = getRequestListener(bff.app.fetch, { hostname });
  // A kept public catalog answer is written before the app sees the request (http/answer-cache.ts).
  const server = createServer(serverOptionsFor(limits), (request, response) => {
    if (!tracking.track(request, response)) return;
    if (!bff.answers.serve(request, response)) void appListener(request, response);
  });
  const tracking = applyServerLimits(server, limits);
  server.on('clientError', answerClientError);
  const listening = await listen(server, {
    ...options,
    drainMs: options.drainMs ?? stopTimeline(limits.stopSeconds).drainMs,
  });
  return {
    ...listening,
    async close() {
      await listening.close();
      await bff.close();
    },
  };
}

/** A listening server: its address and how to stop it. */
export interface Listening {
  /** `http://127.0.0.1:<port>` (or the given host): where to reach it from this machine. */
  url: string;
  /**
   * The address it is bound to, as the system reports it (`0.0.0.0` for every IPv4 address, `[::1]`, or the
   * address a host name resolved to): what the start-up line names, so that it never says `localhost` for an IP.
   */
  boundUrl: string;
  port: number;
  /** Stop accepting connections, close idle ones, let the requests under way finish (at most `drainMs`). */
  close(): Promise<void>;
}

/** Start `server` listening on `hostname:port` (default 127.0.0.1 and a free port). */
export async function listen(server: Server, options: ServeOptions = {}): Promise<Listening> {
  const hostname = options.hostname ?? '127.0.0.1';
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => resolve(server.address() as AddressInfo));
  });
  const host = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  return {
    url: httpUrl(host, address.port),
    boundUrl: httpUrl(address.address, address.port),
    port: address.port,
    async close() {
      // A request still running after the drain (a slow upstream) has its connection cut: the client retries
      // (creates carry their idempotency key) and the state it began is taken up again like after a crash.
      let cut: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        cut = setTimeout(
          () => server.closeAllConnections(),
          options.drainMs ?? stopTimeline(ServerLimitsConfigSchema.parse({}).stopSeconds).drainMs,
        );
      });
      clearTimeout(cut);
    },
  };
}

/** `http://<host>:<port>`, an IPv6 address in brackets. */
const httpUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The statuses Node's HTTP parser refuses a request with, before the app sees it. */
const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * A request Node's parser refused (headers too large, a malformed request line or header) answers the
 * contract's error envelope like every other failure, not Node's bodiless default.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] = CLIENT_ERROR_STATUS[error.code ?? ''] ?? [400, 'Bad Request'];
  const requestId = newRequestId();
  const envelope: ApiErrorEnvelope = {
    error: { code: 'validation_failed', params: { reason: 'malformed_request' } },
    meta: { requestId, apiVersion: API_VERSION },
  };
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A listening operations server. */
export type RunningOperations = Listening;

/** Listen with the operations app on `hostname:port` (default loopback and a free port). */
export async function serveOperations(
  app: Hono<AppEnv>,
  options: { port?: number; hostname?: string } = {},
): Promise<RunningOperations> {
  const hostname = options.hostname ?? '127.0.0.1';
  return await listen(createServer(getRequestListener(app.fetch, { hostname })), { ...options, hostname });
}
