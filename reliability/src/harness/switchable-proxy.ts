/**
 * @module
 * A TCP proxy on a free loopback port in front of an upstream, that can be switched off (the listener closed
 * and every open connection destroyed: the BFF sees connection refused, as when the upstream is down) and on
 * again on the same port, with the upstream's state untouched.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A proxy to `127.0.0.1:targetPort`. */
export interface SwitchableProxy {
  url: string;
  port: number;
  /** Refuse connections and cut the open ones. */
  down(): Promise<void>;
  /** Accept connections again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Start a proxy in front of `targetPort`. */
export async function startSwitchableProxy(targetPort: number): Promise<SwitchableProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    const next = createServer((client) => {
      const upstream = connect({ port: targetPort, host: '127.0.0.1' });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy got no port');
    port = address.port;
    server = next;
  }

  async function down(): Promise<void> {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing !== undefined) await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    down,
    async up() {
      if (server === undefined) await listen();
    },
    close: down,
  };
}
