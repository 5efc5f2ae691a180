/**
 * @module
 * Test support: an HTTPS image host on loopback (a free port, a certificate of a throwaway CA) for the upstream
 * account's logo — it serves a small PNG by default, counts requests, and answers whatever a test sets instead
 * (a page that is not an image, an oversized body, an error, a redirect). The BFF's logo fetch reaches it only
 * when given its `testHost` (its address and CA): a loopback host is otherwise refused. Used by tests only.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { LogoTestHost } from '../src/catalog/logo-fetch';
import { makeTestPki } from './test-pki';

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
  /** `https://127.0.0.1:<port>`. */
  origin: string;
  /** The address an upstream account names for `path`: `https://127.0.0.1:<port>/…`. */
  logoUrl(path: string): string;
  /** What lets the BFF's logo fetch reach this host (`CreateBffOptions.logoTestHost`). */
  testHost: LogoTestHost;
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
  const pki = makeTestPki();
  const server: Server = createServer({ key: pki.serverKey, cert: pki.serverCert }, (request, response) => {
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
    origin: `https://127.0.0.1:${port}`,
    logoUrl: (path) => `https://127.0.0.1:${port}${path}`,
    testHost: { addresses: ['127.0.0.1'], ca: pki.caCert },
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
