/**
 * @module
 * Test support: a real HTTP relay in front of the sandbox. It counts the TCP connections clients open,
 * records each request's method, path and headers, points the links in answers at itself, and can rewrite a JSON answer (an upstream that adds a
 * field or sends a wrong type) or act before forwarding (bump the catalog mid-walk). Used by tests only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/** A request as the relay saw it. */
export interface RelayedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The status the client was answered (unset while in flight, or when the connection was dropped). */
  status?: number;
}

/** Hooks of {@link startTestRelay}; replace them between tests. */
export interface RelayHooks {
  /** Runs before a request is forwarded. */
  beforeForward?: (request: RelayedRequest) => Promise<void> | void;
  /** Rewrites a JSON answer; return the body to send. */
  rewrite?: (request: RelayedRequest, body: unknown) => unknown;
  /** Answers instead of the sandbox (an error the sandbox never sends); undefined forwards the request. */
  respond?: (request: RelayedRequest) => { status: number; body: unknown } | undefined;
}

/** A running relay. */
export interface TestRelay {
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  readonly requests: RelayedRequest[];
  hooks: RelayHooks;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (a free port) that forwards everything to `target`. */
export async function startTestRelay(target: string): Promise<TestRelay> {
  const upstream = new Pool(target);
  let connections = 0;
  const requests: RelayedRequest[] = [];
  const relay: TestRelay = {
    url: '',
    get connections() {
      return connections;
    },
    requests,
    hooks: {},
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await upstream.close();
    },
  };
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request: RelayedRequest = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: incoming.headers,
      at: Date.now(),
    };
    requests.push(request);
    try {
      await relay.hooks.beforeForward?.(request);
      const own = relay.hooks.respond?.(request);
      if (own) {
        outgoing.setHeader('content-type', 'application/json');
        request.status = own.status;
        outgoing.writeHead(own.status).end(JSON.stringify(own.body));
        return;
      }
      const { host: _host, connection: _connection, ...headers } = incoming.headers;
      const answer = await upstream.request({
        path: request.path,
        method: request.method as 'GET',
        headers: headers as Record<string, string>,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
      });
      // Links in answers point at the relay, as a real upstream's point at itself.
      let text = (await answer.body.text()).replaceAll(target, relay.url);
      const rewrite = relay.hooks.rewrite;
      if (rewrite && String(answer.headers['content-type']).includes('json')) {
        text = JSON.stringify(rewrite(request, JSON.parse(text)));
      }
      const passed = [
        'content-type',
        'retry-after',
        'x-request-id',
        'idempotent-replayed',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
      ];
      for (const name of passed) {
        const value = answer.headers[name];
        if (value !== undefined) outgoing.setHeader(name, value);
      }
      request.status = answer.statusCode;
      outgoing.writeHead(answer.statusCode).end(text);
    } catch {
      // The sandbox dropped the connection: do the same to the client.
      incoming.socket.destroy();
    }
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}
