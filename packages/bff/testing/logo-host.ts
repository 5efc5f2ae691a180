/**
 * @module
 * Test support: an image host on loopback (plain HTTP, a free port) for the upstream account's logo — it
 * serves a small PNG by default, counts requests, and answers whatever a test sets instead (a page that is not
 * an image, an oversized body, an error, a redirect). Used by tests only.
 */
import { createServer, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** What the host answers. */
export interface LogoAnswer {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: Uint8Array | string;
}

/** A running image host. */
export interface LogoHost {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /**
   * The address an upstream account names for `path`: `https://127.0.0.1:<port>/…`, as the contract's logo
   * is HTTPS (the BFF fetches it over plain HTTP only because the host is on loopback beside a local upstream).
   */
  logoUrl(path: string): string;
  /** The paths requested so far. */
  readonly requests: string[];
  /** Answers a path; default: {@link TINY_PNG} with a misleading `Content-Type` (the BFF sniffs the bytes). */
  answer: (path: string) => LogoAnswer;
  close(): Promise<void>;
}

const DEFAULT_ANSWER = (): LogoAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/octet-stream' },
  body: TINY_PNG,
});

/** Starts an image host on 127.0.0.1. */
export async function startLogoHost(): Promise<LogoHost> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const answer = host.answer(path);
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host: LogoHost = {
    origin: `http://127.0.0.1:${port}`,
    logoUrl: (path) => `https://127.0.0.1:${port}${path}`,
    requests,
    answer: DEFAULT_ANSWER,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return host;
}
