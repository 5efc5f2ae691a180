/**
 * @module
 * Child process: the sandbox upstream on a free loopback port, counting the TCP connections it accepts
 * (to show that the BFF reuses a keep-alive pool rather than opening a connection per call).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type SandboxOptionsInput } from '@esim-embed/sandbox';
import { serve } from '@hono/node-server';
import { childOptions, serveParent } from '../child-process';

/** What the sandbox child reports when ready. */
export interface SandboxInfo {
  url: string;
  /** Milliseconds to generate the catalog and start listening. */
  startMs: number;
}

/** Connection counts since the last reset. */
export interface ConnectionCounts {
  accepted: number;
  open: number;
}

const started = performance.now();
const options = childOptions<SandboxOptionsInput>();
const sandbox = createSandbox(options);
let accepted = 0;
let open = 0;
const server = await new Promise<Server>((resolve, reject) => {
  const listening = serve({ fetch: sandbox.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
    resolve(listening as Server),
  ) as Server;
  listening.once('error', reject);
});
server.on('connection', (socket) => {
  accepted += 1;
  open += 1;
  socket.once('close', () => {
    open -= 1;
  });
});
const { port } = server.address() as AddressInfo;

serveParent(
  { url: `http://127.0.0.1:${port}`, startMs: performance.now() - started } satisfies SandboxInfo,
  {
    connections: (): ConnectionCounts => ({ accepted, open }),
    resetConnections: (): ConnectionCounts => {
      const counts = { accepted, open };
      accepted = 0;
      return counts;
    },
  },
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
