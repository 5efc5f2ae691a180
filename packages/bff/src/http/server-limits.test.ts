/**
 * What one slow or greedy client may hold of the BFF's HTTP server, over raw TCP sockets against a real BFF
 * (the real sandbox behind a relay): a body trickling in byte by byte is cut when it stalls longer than the
 * body-idle timeout, and by the request timeout when it trickles just fast enough; headers sent slowly are
 * answered 408; the connection one address opens over its cap is answered `rate_limited` and closed while
 * another address still connects; a request the app is still working on is never cut, however long the
 * upstream takes. The server's seconds last {@link SECOND} ms here, so that each cut comes four times sooner; bounds
 * that say a cut came late enough are in those seconds, bounds that say it came soon enough stay as they were.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, PARTNER_SECRET, type RunningBff, startBff, testConfig } from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import type { ServerLimitsConfig } from '../config/config-schema';

/** How long one second of the server's timeouts lasts in these tests. */
const SECOND = 250;

let sandbox: RunningSandbox;
let relay: TestRelay;
const running: RunningBff[] = [];
const sockets: Socket[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ offerCount: 20 });
  relay = await startTestRelay(sandbox.url);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const bff of running.splice(0)) await bff.server.close();
  relay.hooks = {};
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

async function bffWith(server: Partial<ServerLimitsConfig>, trustedProxyHops = 0) {
  const bff = await startBff(relay.url, {
    sessionSecret: randomBytes(32),
    serverSecondMs: SECOND,
    config: (url) => testConfig(url, { server, trustedProxyHops, accountCacheMs: 0 }),
  });
  running.push(bff);
  return bff;
}

/** A raw connection to the BFF from `localAddress` (any 127.x.y.z is this host), with what it received. */
async function open(port: number, localAddress = '127.0.0.1') {
  // Before the connection exists: the server's idle timer cannot start earlier, however late `connect` is heard.
  const openedAt = Date.now();
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, openedAt, text: () => Buffer.concat(received).toString('latin1') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send `body` one byte every `everyMs` after the headers, until the socket closes; when it closed, ms after start. */
async function trickle(port: number, body: string, everyMs: number) {
  const connection = await open(port);
  const started = connection.openedAt;
  connection.socket.write(
    'POST /v1/sessions HTTP/1.1\r\nHost: bff\r\nOrigin: https://shop.example\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  let stopped = false;
  void connection.closed.then(() => {
    stopped = true;
  });
  // Bounded: never more bytes than the body has, never longer than the test's own timeout.
  for (const byte of body) {
    if (stopped) break;
    await sleep(everyMs);
    if (!stopped) connection.socket.write(byte);
  }
  const closedAt = await connection.closed;
  return { afterMs: closedAt - started, text: connection.text() };
}

describe('server limits', () => {
  it('cuts a body that stalls longer than the body-idle timeout', async () => {
    const bff = await bffWith({ bodyIdleTimeoutSeconds: 1, requestTimeoutSeconds: 30 });
    const cut = await trickle(bff.server.port, JSON.stringify({ widgetId: 'shop' }), 1.5 * SECOND);
    expect(cut.afterMs).toBeGreaterThanOrEqual(1 * SECOND);
    // Long before the request timeout (30 seconds).
    expect(cut.afterMs).toBeLessThan(3_000);
    expect(cut.text).not.toMatch(/^HTTP\/1\.1 2/);
  });

  it('cuts a body that trickles just fast enough, at the request timeout', async () => {
    const bff = await bffWith({
      bodyIdleTimeoutSeconds: 2,
      headersTimeoutSeconds: 2,
      requestTimeoutSeconds: 3,
    });
    const body = JSON.stringify({ widgetId: 'shop', padding: 'x'.repeat(40) });
    const cut = await trickle(bff.server.port, body, 0.5 * SECOND);
    // Node looks for late requests once a second. The whole body would take 35 seconds.
    expect(cut.afterMs).toBeGreaterThanOrEqual(3 * SECOND);
    expect(cut.afterMs).toBeLessThan(5_500);
    expect(cut.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(cut.text).toContain('"code":"validation_failed"');
  });

  it('answers 408 to headers sent too slowly', async () => {
    // The request and idle timeouts (5 s and more) are past the bound: only the headers timeout cuts in time.
    const bff = await bffWith({
      headersTimeoutSeconds: 1,
      requestTimeoutSeconds: 3_500 / SECOND + 1,
      bodyIdleTimeoutSeconds: 3_500 / SECOND + 1,
    });
    const connection = await open(bff.server.port);
    const started = Date.now();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: bff\r\n');
    for (let line = 0; line < 8 && !connection.socket.destroyed; line += 1) {
      await sleep(0.4 * SECOND);
      if (!connection.socket.destroyed) connection.socket.write(`X-Slow-${line}: 1\r\n`);
    }
    const closedAt = await connection.closed;
    expect(closedAt - started).toBeLessThan(3_500);
    expect(connection.text()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('refuses the connection over one address’s cap, while another address still connects', async () => {
    const cap = 5;
    const bff = await bffWith({ maxConnectionsPerAddress: cap, bodyIdleTimeoutSeconds: 30 });
    const held = [];
    for (let index = 0; index < cap; index += 1) held.push(await open(bff.server.port));
    const over = await open(bff.server.port);
    over.socket.write('GET /healthz HTTP/1.1\r\nHost: bff\r\n\r\n');
    await over.closed;
    expect(over.text()).toMatch(/^HTTP\/1\.1 429 /);
    expect(over.text()).toContain('"code":"rate_limited"');
    expect(over.text()).not.toContain('"status"');

    // Another client address is not counted with the first.
    const other = await open(bff.server.port, '127.0.0.2');
    other.socket.write('GET /healthz HTTP/1.1\r\nHost: bff\r\nConnection: close\r\n\r\n');
    await other.closed;
    expect(other.text()).toMatch(/^HTTP\/1\.1 200 /);

    // The held connections still work, and one closed makes room for one more.
    held[0]?.socket.write('GET /healthz HTTP/1.1\r\nHost: bff\r\nConnection: close\r\n\r\n');
    await held[0]?.closed;
    expect(held[0]?.text()).toMatch(/^HTTP\/1\.1 200 /);
    const again = await open(bff.server.port);
    again.socket.write('GET /healthz HTTP/1.1\r\nHost: bff\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.text()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('behind a trusted proxy caps the requests in flight per forwarded client, not the proxy’s connections', async () => {
    const bff = await bffWith({ maxConnectionsPerAddress: 2, bodyIdleTimeoutSeconds: 30 }, 1);
    const viaProxy = (client: string) => ({ 'X-Forwarded-For': client });
    // Two requests of one client still sending their bodies, through the proxy's connections.
    const held = [];
    for (let index = 0; index < 2; index += 1) {
      const connection = await open(bff.server.port);
      connection.socket.write(
        'POST /v1/sessions HTTP/1.1\r\nHost: bff\r\nX-Forwarded-For: 203.0.113.7\r\n' +
          'Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{',
      );
      held.push(connection);
    }
    await sleep(200);
    const third = await call(bff.server.url, '/healthz', { headers: viaProxy('203.0.113.7') });
    expect(third.status, third.text).toBe(429);
    expect(third.body.error).toMatchObject({
      code: 'rate_limited',
      params: { reason: 'too_many_connections' },
    });
    // Another client through the same proxy, and the proxy's own further connections, are served.
    expect((await call(bff.server.url, '/healthz', { headers: viaProxy('203.0.113.8') })).status).toBe(200);
    expect((await call(bff.server.url, '/healthz')).status).toBe(200);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
    await sleep(100);
    expect((await call(bff.server.url, '/healthz', { headers: viaProxy('203.0.113.7') })).status).toBe(200);
  });

  it('never cuts a request the app is working on, however long the upstream takes', async () => {
    const bff = await bffWith({ bodyIdleTimeoutSeconds: 1 });
    relay.hooks.beforeForward = async (request) => {
      if (request.path.endsWith('/account')) await sleep(1.6 * SECOND);
    };
    const answer = await call(bff.server.url, '/v1/partner/account?widgetId=shop', {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(answer.status, answer.text).toBe(200);
  });
});
