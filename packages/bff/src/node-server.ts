/**
 * @module
 * Serving a BFF over Node's HTTP server (`@hono/node-server`) and stopping it cleanly: used by the
 * server entry, the root `pnpm start` and the tests (port 0 picks a free port).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Bff } from './bff';

/** A listening BFF. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` (or the given host). */
  url: string;
  port: number;
  /** Stop accepting connections, close idle ones and release the BFF's resources. */
  close(): Promise<void>;
}

export interface ServeOptions {
  port?: number;
  hostname?: string;
}

/** Listen with `bff.app` on `hostname:port` (default 127.0.0.1 and a free port). */
export async function serveBff(bff: Bff, options: ServeOptions = {}): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const { server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>(
    (resolve, reject) => {
      const server = serve({ fetch: bff.app.fetch, port: options.port ?? 0, hostname }, (info) =>
        resolve({ server, address: info }),
      );
      server.once('error', reject);
    },
  );
  const host = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
      await bff.close();
    },
  };
}
