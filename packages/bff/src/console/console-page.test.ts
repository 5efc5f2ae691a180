/**
 * The console's page at `/console/`: its built files served with a strict Content-Security-Policy (no inline
 * script or style, nothing from elsewhere, no framing), the page itself for any path of the console's own routes,
 * hashed assets cached for good, a missing asset a 404 — and nothing at all while the console is off.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Stack, startStack, testConfig } from '../../testing/stack';

const dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
let on: Stack;
let off: Stack;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Console</title><script type="module" src="/console/assets/app-1a2b.js"></script>',
  );
  writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log("console");');
  on = await startStack({
    consoleDist: dist,
    config: (url) => ({ ...testConfig(url), console: { enabled: true } }),
  });
  off = await startStack({ consoleDist: dist });
});
afterAll(async () => {
  await on?.close();
  await off?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the console page', () => {
  it('is served with a strict CSP, for every path of the page, its assets cached for good', async () => {
    const redirect = await fetch(`${on.server.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/console/');
    for (const path of ['/console/', '/console/sales/chk_abcdefgh12', '/console/users']) {
      const page = await call(on.server.url, path);
      expect(page.status, path).toBe(200);
      expect(page.text).toContain('<title>Console</title>');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await call(on.server.url, '/console/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await call(on.server.url, '/console/assets/gone.js')).status).toBe(404);
    const api = await call(on.server.url, '/console/api/nothing-here');
    expect(api.status).toBe(404);
    expect(api.body.error.code).toBe('not_found');
  });

  it('is not there while the console is off', async () => {
    for (const path of ['/console/', '/console/api/session'])
      expect((await call(off.server.url, path)).status).toBe(404);
    expect((await call(off.server.url, '/console/api/session', { method: 'POST', body: {} })).status).toBe(
      404,
    );
  });
});
