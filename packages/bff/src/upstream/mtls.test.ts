/**
 * Keys restricted by mTLS and CIDR, for real on loopback: the sandbox listens over HTTPS and asks for a client
 * certificate of a test CA made with openssl at test time. A widget with the certificate (from the
 * environment) sells; one without it, or with another CA's, is stopped — `/readyz` says
 * `client_certificate_required`, sessions are refused with `widget_misconfigured`, the log says what to set.
 * A listener that allows another address range gives `address_refused`.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../../testing/after-sale-flow';
import { call, openWidget, type RunningBff, SHOP_ORIGIN, startBff, TEST_ENV } from '../../testing/stack';
import { makeTestPki, type TestPki } from '../../testing/test-pki';
import { openCheckoutOnPage } from '../../testing/traveller-checkout';
import type { BffConfigInput } from '../config/config-schema';
import { ConfigError, parseConfig, resolveSecrets } from '../config/load-config';

const OPERATIONS_TOKEN = `ops-${randomBytes(24).toString('base64url')}`;
const OPERATIONS = { Authorization: `Bearer ${OPERATIONS_TOKEN}` };

let pki: TestPki;
let env: Record<string, string>;
beforeAll(() => {
  pki = makeTestPki();
  env = {
    TEST_OPERATIONS_TOKEN: OPERATIONS_TOKEN,
    TEST_UPSTREAM_CA: pki.caCert,
    TEST_CLIENT_CERT: pki.clientCert,
    TEST_CLIENT_KEY: pki.clientKey,
    TEST_STRANGER_CERT: pki.strangerCert,
    TEST_STRANGER_KEY: pki.strangerKey,
  };
});

/** A direct test widget on `baseUrl` with extra upstream settings. */
function widget(id: string, baseUrl: string, upstream: object) {
  return {
    id,
    displayName: id,
    environment: 'test' as const,
    upstream: { baseUrl, apiKeyEnv: 'TEST_UPSTREAM_KEY', timeoutMs: 2_000, maxRetries: 0, ...upstream },
    allowedOrigins: [SHOP_ORIGIN],
    checkoutMode: 'direct' as const,
  };
}

/**
 * Every `/readyz` answer until each widget's state is known: a widget whose first catalog read failed or timed
 * out (as on a busy machine) is `upstream_unavailable` until an answer says whether it can sell. Polled (the
 * readiness is reused for a few seconds) for up to a minute.
 */
async function readinessUntilKnown(bff: RunningBff) {
  const seen: Array<Record<string, string>> = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await call(bff.server.url, '/readyz', { headers: OPERATIONS });
    seen.push(ready.body.checks);
    const known = !Object.values(ready.body.checks).includes('upstream_unavailable');
    if (known || Date.now() > deadline) return { ready, seen };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Two requests to `url` on two connections of one agent (the second resumes the first's TLS session): the status
 * of each and whether its session was resumed.
 */
async function twoConnections(url: string, tls: { ca: string; cert?: string; key?: string }) {
  const agent = new Agent({ ...tls, keepAlive: false });
  const once = () =>
    new Promise<{ status: number; resumed: boolean }>((resolve, reject) => {
      const sent = request(`${url}/capabilities`, { agent }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            resumed: (response.socket as TLSSocket).isSessionReused(),
          }),
        );
      });
      sent.on('error', reject);
      sent.end();
    });
  try {
    return [await once(), await once()];
  } finally {
    agent.destroy();
  }
}

const refusedSession = (bff: RunningBff, widgetId: string) =>
  call(bff.server.url, '/v1/sessions', {
    method: 'POST',
    headers: { Origin: SHOP_ORIGIN },
    body: { widgetId },
  });

describe('an upstream that requires a client certificate', () => {
  let sandbox: RunningSandbox;
  let bff: RunningBff;
  beforeAll(async () => {
    sandbox = await startSandbox({
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
      tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.caCert },
      access: { requireClientCertificate: true },
    });
    const ca = { caCertificateEnv: 'TEST_UPSTREAM_CA' };
    const config: BffConfigInput = {
      operationsTokenEnv: 'TEST_OPERATIONS_TOKEN',
      widgets: [
        widget('mtls', sandbox.url, {
          ...ca,
          clientCertificateEnv: 'TEST_CLIENT_CERT',
          clientKeyEnv: 'TEST_CLIENT_KEY',
        }),
        widget('no-cert', sandbox.url, ca),
        widget('stranger', sandbox.url, {
          ...ca,
          clientCertificateEnv: 'TEST_STRANGER_CERT',
          clientKeyEnv: 'TEST_STRANGER_KEY',
        }),
      ],
    };
    bff = await startBff(sandbox.url, { sessionSecret: randomBytes(32), config: () => config, env });
  });
  afterAll(async () => {
    await bff?.server.close();
    await sandbox?.close();
  });

  it('sells over mTLS with the certificate from the environment', async () => {
    expect(sandbox.url).toMatch(/^https:/);
    const page = await openWidget(bff.server.url, 'mtls');
    const checkout = await openCheckoutOnPage(page);
    await untilReady(page, checkout.id, checkout.clientSecret);
  });

  it('refuses a client without a certificate on a resumed TLS session too, and lets a certified one resume', async () => {
    // Node.js counts a resumed TLS 1.3 session as authorized even when its client presented no certificate.
    const bare = await twoConnections(sandbox.url, { ca: pki.caCert });
    expect(bare.map((answer) => answer.status)).toEqual([403, 403]);
    expect(bare[1]?.resumed).toBe(true);
    const certified = await twoConnections(sandbox.url, {
      ca: pki.caCert,
      cert: pki.clientCert,
      key: pki.clientKey,
    });
    // Past the certificate check (the key is the API's to refuse: none was sent).
    expect(certified.map((answer) => answer.status)).toEqual([401, 401]);
    expect(certified[1]?.resumed).toBe(true);
  });

  it('stops a widget without a trusted certificate: readyz, sessions and a log line that says what to set', async () => {
    const { ready, seen } = await readinessUntilKnown(bff);
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({
      'widget:mtls': 'ok',
      'widget:no-cert': 'client_certificate_required',
      'widget:stranger': 'client_certificate_required',
    });
    // Never ready while unknown: a widget without a trusted certificate is not "ok" before its refusal is read.
    for (const checks of seen) {
      expect(checks['widget:no-cert']).not.toBe('ok');
      expect(checks['widget:stranger']).not.toBe('ok');
    }
    for (const id of ['no-cert', 'stranger']) {
      const session = await refusedSession(bff, id);
      expect(session.status).toBe(503);
      expect(session.body.error.code).toBe('widget_misconfigured');
    }
    const said = bff.logs.filter((line) => line.includes('enterprise_auth_required'));
    expect(
      said.some((line) => line.includes('clientCertificateEnv') && line.includes('"level":"error"')),
    ).toBe(true);
  }, 90_000);
});

describe('an upstream that allows another address range', () => {
  it('reports address_refused and refuses sessions', async () => {
    const sandbox = await startSandbox({ access: { allowedCidrs: ['203.0.113.0/24'] } });
    const config: BffConfigInput = {
      operationsTokenEnv: 'TEST_OPERATIONS_TOKEN',
      widgets: [widget('cidr', sandbox.url, {})],
    };
    const bff = await startBff(sandbox.url, { sessionSecret: randomBytes(32), config: () => config, env });
    try {
      const ready = await call(bff.server.url, '/readyz', { headers: OPERATIONS });
      expect(ready.body.checks).toMatchObject({ 'widget:cidr': 'address_refused' });
      expect((await refusedSession(bff, 'cidr')).body.error.code).toBe('widget_misconfigured');
      expect(bff.logs.some((line) => line.includes('CIDR allowlist'))).toBe(true);
    } finally {
      await bff.server.close();
      await sandbox.close();
    }
  });
});

describe('the client certificate at start-up', () => {
  it('refuses a key that is not the certificate’s, naming the variables, never their content', () => {
    const config = parseConfig(
      {
        widgets: [
          widget('mtls', 'https://api.partner.example/v2', {
            clientCertificateEnv: 'TEST_CLIENT_CERT',
            clientKeyEnv: 'TEST_STRANGER_KEY',
          }),
        ],
      },
      'test config',
    );
    const attempt = () => resolveSecrets(config, { ...TEST_ENV, ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /TEST_STRANGER_KEY is not the private key of the certificate in TEST_CLIENT_CERT/,
    );
    expect(attempt).not.toThrow(/BEGIN/);
  });

  it('refuses a client certificate on a plain http upstream', () => {
    expect(() =>
      parseConfig({
        widgets: [
          widget('mtls', 'http://127.0.0.1:1', {
            clientCertificateEnv: 'TEST_CLIENT_CERT',
            clientKeyEnv: 'TEST_CLIENT_KEY',
          }),
        ],
      }),
    ).toThrow(/https baseUrl/);
  });
});
