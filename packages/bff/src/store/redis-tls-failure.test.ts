/**
 * A Redis reached over TLS that the handshake fails with says why, naming the setting that asked for TLS: a
 * certificate the BFF cannot verify (trust its CA through `NODE_EXTRA_CA_CERTS`), or a server that does not speak
 * TLS on that port. Both in the outage's log line and in the error an operation fails with.
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki } from '../../testing/test-pki';
import { createLogger } from '../logger';
import { createRedisStore } from './redis-store';
import type { RedisTarget } from './redis-target';
import type { Store } from './store';

/** A server listening on a free port of 127.0.0.1 that answers nothing. */
async function listening(server: Server): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

let tls: Awaited<ReturnType<typeof listening>>;
let plain: Awaited<ReturnType<typeof listening>>;
beforeAll(async () => {
  const pki = makeTestPki();
  // A certificate a private CA signed, which this process was not told to trust.
  tls = await listening(createTlsServer({ cert: pki.serverCert, key: pki.serverKey }));
  // A Redis without TLS answers the TLS greeting with a protocol error and closes.
  plain = await listening(
    createTcpServer((socket) =>
      socket.on('data', () => socket.end('-ERR Protocol error: invalid multibulk length\r\n')),
    ),
  );
});
afterAll(async () => {
  await Promise.all([tls?.close(), plain?.close()]);
});

/** What the store's first operation fails with, and what it logged, on `target`. */
async function failure(target: RedisTarget): Promise<{ error: string; logs: string }> {
  const lines: string[] = [];
  const store: Store = createRedisStore({
    target,
    connectWaitMs: 2_000,
    commandTimeoutMs: 2_000,
    logger: createLogger({ write: (line) => lines.push(line) }),
  });
  try {
    const error = await store.get('anything').then(
      () => expect.fail('answered'),
      (caught: unknown) => caught,
    );
    const messages: string[] = [];
    for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
    return { error: messages.join(' ← '), logs: lines.join('\n') };
  } finally {
    await store.close();
  }
}

describe('a Redis reached over TLS that the handshake fails with', () => {
  it('names the URL and the certificate it could not verify, and how to trust its CA', async () => {
    const { error, logs } = await failure({ kind: 'url', url: `rediss://127.0.0.1:${tls.port}` });
    for (const text of [error, logs]) {
      expect(text).toContain('ESIM_BFF_REDIS_URL');
      expect(text).toMatch(/certificate/);
      expect(text).toContain('NODE_EXTRA_CA_CERTS');
    }
  });

  it('names ESIM_BFF_REDIS_TLS when the server does not speak TLS on that port', async () => {
    const { error, logs } = await failure({
      kind: 'cluster',
      nodes: [{ host: '127.0.0.1', port: plain.port }],
      tls: true,
    });
    for (const text of [error, logs]) {
      expect(text).toContain('ESIM_BFF_REDIS_TLS');
      expect(text).toContain('does not speak TLS on that port');
    }
  });
});
