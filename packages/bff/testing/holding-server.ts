/**
 * @module
 * A server that holds every request it takes (tests of a stop with work under way, of a run that does not end).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that records each request's path and answers none until `answer(status)`: a partner's
 * endpoint or an upstream that is slow to answer, or never does within a test.
 */
export interface HoldingServer {
  url: string;
  paths: string[];
  answer(status: number): void;
  close(): Promise<void>;
}

export async function startHoldingServer(): Promise<HoldingServer> {
  const paths: string[] = [];
  const held: ServerResponse[] = [];
  let status: number | null = null;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      if (status === null) held.push(response);
      else response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    answer(answered) {
      status = answered;
      for (const response of held.splice(0)) response.writeHead(answered).end();
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
