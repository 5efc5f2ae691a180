/**
 * The upstream account's logo over HTTP: a session's brand names it at the BFF (never at the upstream's image
 * host), and `GET /v1/brand/{widgetId}/logo/{hash}` answers the image's bytes, fetched once from a local HTTPS
 * image host (let through by the test seam) that a relay in front of the sandbox makes the account's logo; what is not a usable image is
 * `not_found`. A logo the widget's config sets (or switches off) is kept as it is.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { ApiErrorEnvelopeSchema } from '@esim-embed/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LogoHost, startLogoHost, TINY_PNG } from '../../testing/logo-host';
import { freePort } from '../../testing/redis-server';
import { call, openWidget, type RunningBff, startBff, testConfig } from '../../testing/stack';
import { startTestRelay, type TestRelay } from '../../testing/test-relay';
import type { WidgetBrandOverrides } from './brand';

let sandbox: RunningSandbox;
let relay: TestRelay;
let logoHost: LogoHost;
let bffs: RunningBff[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ offerCount: 40 });
  relay = await startTestRelay(sandbox.url);
  logoHost = await startLogoHost();
});
afterEach(async () => {
  for (const running of bffs) await running.server.close();
  bffs = [];
  logoHost.answer = () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: TINY_PNG });
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  await logoHost?.close();
});

/** The upstream account's brand names `logoUrl` from now on (the BFF sees it at its next refresh). */
function accountLogo(logoUrl: string) {
  relay.hooks.rewrite = (request, body) => {
    if (!request.path.endsWith('/account')) return body;
    const answer = body as { data: { brand: Record<string, unknown>; brandOverrides: unknown } };
    return {
      ...answer,
      data: { ...answer.data, brand: { ...answer.data.brand, logoUrl }, brandOverrides: null },
    };
  };
}

/** A BFF in front of the relay, with a public origin unless `publicOrigin: null`. */
async function startLogoBff(
  options: {
    publicOrigin?: string | null;
    brand?: WidgetBrandOverrides;
    metrics?: boolean;
    /** Let the fetch reach the test's loopback image host (default true). */
    reachLogoHost?: boolean;
  } = {},
) {
  const port = await freePort();
  const publicOrigin =
    options.publicOrigin === null ? undefined : (options.publicOrigin ?? `http://127.0.0.1:${port}`);
  const running = await startBff(relay.url, {
    sessionSecret: randomBytes(32),
    port,
    bffOptions: {
      ...(options.reachLogoHost === false ? {} : { logoTestHost: logoHost.testHost }),
      ...(publicOrigin === undefined ? {} : { publicOrigin }),
      ...(options.metrics === true ? { observability: { metrics: true } } : {}),
    },
    config: (url) => {
      const config = testConfig(url);
      const brand = options.brand;
      if (brand === undefined) return config;
      return { ...config, widgets: config.widgets.map((widget) => ({ ...widget, brand })) };
    },
  });
  bffs.push(running);
  return running;
}

/** The logo a new session of the widget `shop` names. */
async function sessionLogo(running: RunningBff): Promise<string | null> {
  return (await openWidget(running.server.url, 'shop')).session.widget.brand.logoUrl;
}

/** Fetch a logo address from the BFF that named it. */
async function fetchLogo(running: RunningBff, address: string) {
  return await call(running.server.url, new URL(address).pathname);
}

describe('the upstream account logo', () => {
  it('is named at the BFF and served from there, its bytes fetched once and sniffed', async () => {
    const source = logoHost.logoUrl('/logos/4711?w=256');
    accountLogo(source);
    const running = await startLogoBff({ publicOrigin: 'https://bff.example' });
    const address = await sessionLogo(running);
    expect(address).toMatch(/^https:\/\/bff\.example\/v1\/brand\/shop\/logo\/[0-9a-f]{32}$/);

    const requestsBefore = logoHost.requests.length;
    const first = await fetchLogo(running, address as string);
    expect(first.status).toBe(200);
    // The host calls it text/plain: the BFF answers what the bytes are.
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const image = await fetch(`${running.server.url}${new URL(address as string).pathname}`);
    expect(Buffer.from(await image.arrayBuffer()).equals(TINY_PNG)).toBe(true);
    expect(logoHost.requests.slice(requestsBefore)).toEqual(['/logos/4711?w=256']);

    // Another instance with the same config names the same address (the hash is made of data).
    const other = await startLogoBff({ publicOrigin: 'https://bff.example' });
    expect(await sessionLogo(other)).toBe(address);
  });

  it('gets a new address when the account’s logo URL changes; the old one is not_found', async () => {
    accountLogo(logoHost.logoUrl('/logos/old.png'));
    const running = await startLogoBff();
    const old = (await sessionLogo(running)) as string;
    expect((await fetchLogo(running, old)).status).toBe(200);

    accountLogo(logoHost.logoUrl('/logos/new.png'));
    await running.bff.widgets.get('shop')?.catalog.refresh();
    const current = (await sessionLogo(running)) as string;
    expect(current).not.toBe(old);
    const requestsBefore = logoHost.requests.length;
    expect((await fetchLogo(running, current)).status).toBe(200);
    expect(logoHost.requests.slice(requestsBefore)).toEqual(['/logos/new.png']);
    const gone = await fetchLogo(running, old);
    expect(gone.status).toBe(404);
    expect(ApiErrorEnvelopeSchema.parse(gone.body).error.code).toBe('not_found');
  });

  it('is not_found (not cached, no redirect) when the host fails or sends no usable image', async () => {
    const running = await startLogoBff();
    const oversized = Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]);
    const cases: [
      string,
      () => { status: number; headers?: Record<string, string>; body?: Buffer | string },
    ][] = [
      ['html', () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: '<script>x</script>' })],
      ['svg', () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: '<svg xmlns="x"/>' })],
      ['oversized', () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: oversized })],
      ['failing', () => ({ status: 500, body: 'down' })],
      ['to-file', () => ({ status: 302, headers: { location: 'file:///etc/passwd' } })],
      ['to-plain-http', () => ({ status: 302, headers: { location: 'http://example.com/logo.png' } })],
    ];
    for (const [name, answer] of cases) {
      logoHost.answer = answer;
      accountLogo(logoHost.logoUrl(`/logos/${name}`));
      await running.bff.widgets.get('shop')?.catalog.refresh();
      const address = (await sessionLogo(running)) as string;
      expect(address, name).toMatch(/\/v1\/brand\/shop\/logo\/[0-9a-f]{32}$/);
      const refused = await fetchLogo(running, address);
      // The BFF did fetch it, and refused what came back.
      expect(logoHost.requests, name).toContain(`/logos/${name}`);
      expect(refused.status, name).toBe(404);
      expect(refused.headers.get('cache-control'), name).toBe('no-store');
      expect(refused.headers.get('location'), name).toBeNull();
      expect(ApiErrorEnvelopeSchema.parse(refused.body).error.code, name).toBe('not_found');
    }

    accountLogo('https://127.0.0.1:1/logos/unreachable.png');
    await running.bff.widgets.get('shop')?.catalog.refresh();
    expect((await fetchLogo(running, (await sessionLogo(running)) as string)).status).toBe(404);
    // An address that names no logo of this widget, and a widget that does not exist.
    expect((await call(running.server.url, `/v1/brand/shop/logo/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await call(running.server.url, `/v1/brand/nobody/logo/${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('beside a plain-HTTP loopback upstream, reaches neither loopback nor the operations server’s /metrics', async () => {
    const running = await startLogoBff({ metrics: true });
    const metrics = `${running.operations?.url}/metrics`;
    // An http:// logo is no logo at all (the contract's is HTTPS): nothing is named, nothing fetched.
    accountLogo(metrics);
    await running.bff.widgets.get('shop')?.catalog.refresh();
    expect(await sessionLogo(running)).toBeNull();
    const refusals: [string, () => void, RegExp][] = [
      // What the upstream names as https://127.0.0.1:… was fetched over plain HTTP beside a loopback upstream
      // (tried from a second BFF, which the test's image host is not let through to).
      ['loopback', () => accountLogo(metrics.replace('http:', 'https:')), /non-public/],
      [
        'a redirect to /metrics',
        () => {
          logoHost.answer = () => ({ status: 302, headers: { location: metrics } });
          accountLogo(logoHost.logoUrl('/logos/to-metrics'));
        },
        /not HTTPS/,
      ],
      [
        'a redirect to /metrics over HTTPS',
        () => {
          logoHost.answer = () => ({
            status: 302,
            headers: { location: metrics.replace('http:', 'https:') },
          });
          accountLogo(logoHost.logoUrl('/logos/to-metrics-tls'));
        },
        /another host/,
      ],
    ];
    const strict = await startLogoBff({ reachLogoHost: false });
    for (const [name, point, reason] of refusals) {
      const bff = name === 'loopback' ? strict : running;
      point();
      await bff.bff.widgets.get('shop')?.catalog.refresh();
      const logsBefore = bff.logs.length;
      const answer = await fetchLogo(bff, (await sessionLogo(bff)) as string);
      expect(answer.status, name).toBe(404);
      expect(answer.text, name).not.toContain('# HELP');
      const warned = bff.logs.slice(logsBefore).map((line) => JSON.parse(line));
      const unavailable = warned.find(
        (line) => line.message === 'account logo unavailable, the widget shows the brand name',
      );
      expect(unavailable?.reason, name).toMatch(reason);
    }
  });

  it('is left out when the widget sets its own logo or none, and without a public origin', async () => {
    const source = logoHost.logoUrl('/logos/account.png');
    accountLogo(source);
    const configured = await startLogoBff({ brand: { logoUrl: 'https://cdn.partner.example/logo.png' } });
    expect(await sessionLogo(configured)).toBe('https://cdn.partner.example/logo.png');
    const none = await startLogoBff({ brand: { logoUrl: null } });
    expect(await sessionLogo(none)).toBeNull();
    // No public origin: the BFF cannot name its own address, and never names the upstream's.
    const unnamed = await startLogoBff({ publicOrigin: null });
    expect(await sessionLogo(unnamed)).toBeNull();
  });

  it('is refused as SVG, which the contract does not allow', async () => {
    accountLogo('https://cdn.partner.example/logos/acme.svg');
    expect(await sessionLogo(await startLogoBff())).toBeNull();
  });
});
