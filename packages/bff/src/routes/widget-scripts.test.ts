/**
 * The widget's script URLs over HTTP, from a widget root of several versions and one build beside it: pinned
 * versions immutable, `/v<major>/widget.js` and `/widget.js` following the latest release, chunks found under
 * each prefix, any page allowed to load them, and nothing outside a build reachable.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, SHOP_ORIGIN, type Stack, startStack } from '../../testing/stack';
import { compareVersions } from './widget-builds';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const FOLLOWING = 'public, max-age=300';

const widgetRoot = mkdtempSync(join(tmpdir(), 'widget-root-'));
const widgetDist = mkdtempSync(join(tmpdir(), 'widget-dist-'));

/** A build of `version` in `dir`: its loader, one chunk named after it, and its integrity file. */
function writeBuild(dir: string, version: string): void {
  mkdirSync(join(dir, 'widget-chunks'), { recursive: true });
  writeFileSync(join(dir, 'widget.js'), `/* ${version} */ import('./widget-chunks/app-${version}.js');`);
  writeFileSync(join(dir, 'widget-chunks', `app-${version}.js`), `export const version = '${version}';`);
  writeFileSync(join(dir, 'integrity.json'), JSON.stringify({ version, files: {} }));
}

let stack: Stack;
beforeAll(async () => {
  for (const version of ['0.9.0', '1.0.0', '1.2.0', '1.10.0-rc.1', '2.0.0-beta.1']) {
    writeBuild(join(widgetRoot, version), version);
  }
  writeFileSync(join(widgetRoot, 'secret.txt'), 'not served');
  mkdirSync(join(widgetRoot, 'latest'));
  writeBuild(widgetDist, '1.1.0');
  stack = await startStack({ widgetRoot, widgetDist });
});
afterAll(async () => {
  await stack?.close();
});

/** GET `path` from a page on another site; the answer's status, cache, CORS and the version it holds. */
async function load(path: string) {
  const answer = await call(stack.server.url, path, { headers: { Origin: 'https://partner.example' } });
  return {
    status: answer.status,
    cache: answer.headers.get('cache-control'),
    version: /\/\* (\S+) \*\/|version = '([^']+)'/.exec(answer.text)?.slice(1).find(Boolean),
    answer,
  };
}

describe('pinned versions: /widget@<version>/', () => {
  it('serves the loader, its chunks and its integrity file, immutable, to any page', async () => {
    const loader = await load('/widget@1.0.0/widget.js');
    expect(loader).toMatchObject({ status: 200, cache: IMMUTABLE, version: '1.0.0' });
    expect(loader.answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(loader.answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(loader.answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await load('/widget@1.0.0/widget-chunks/app-1.0.0.js')).toMatchObject({
      status: 200,
      cache: IMMUTABLE,
      version: '1.0.0',
    });
    const integrity = await load('/widget@1.2.0/integrity.json');
    expect({ status: integrity.status, cache: integrity.cache }).toEqual({ status: 200, cache: IMMUTABLE });
    expect(integrity.answer.body).toEqual({ version: '1.2.0', files: {} });
  });

  it('serves prereleases and the build beside the root at their exact version', async () => {
    expect(await load('/widget@1.10.0-rc.1/widget.js')).toMatchObject({
      status: 200,
      version: '1.10.0-rc.1',
    });
    expect(await load('/widget@1.1.0/widget.js')).toMatchObject({ status: 200, version: '1.1.0' });
  });

  it('answers an unknown version, or another version’s chunk, with the not_found envelope', async () => {
    for (const path of [
      '/widget@9.9.9/widget.js',
      '/widget@latest/widget.js',
      '/widget@1.0/widget.js',
      '/widget@9.9.9/integrity.json',
    ]) {
      const { answer } = await load(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error, path).toEqual({
        code: 'not_found',
        params: { reason: 'widget_version_unknown' },
      });
      expect(answer.body.meta.requestId, path).toBeTruthy();
    }
    const foreignChunk = await load('/widget@1.0.0/widget-chunks/app-1.2.0.js');
    expect(foreignChunk.status).toBe(404);
    expect(foreignChunk.answer.body.error.code).toBe('not_found');
  });

  it('refuses paths that leave a build', async () => {
    for (const path of [
      '/widget@1.0.0/widget-chunks/..%2F..%2F1.2.0%2Fwidget.js',
      '/widget@1.0.0/widget-chunks/..%2F..%2Fsecret.txt',
      '/widget@1.0.0/widget-chunks/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/widget@..%2F1.2.0/widget.js',
      '/widget@1.0.0%2F..%2F..%2Fsecret.txt/widget.js',
      '/v1/widget-chunks/..%2F..%2Fsecret.txt',
      '/widget-chunks/..%2F..%2Fsecret.txt',
      '/widget@1.0.0/secret.txt',
      '/widget@/widget.js',
      '/secret.txt',
    ]) {
      const { answer } = await load(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).not.toContain('not served');
      expect(answer.body?.error?.code, path).toBe('not_found');
    }
  });
});

describe('following URLs: /v<major>/widget.js and /widget.js', () => {
  it('/v<major>/widget.js is the latest release of that major, cached 5 minutes', async () => {
    expect(await load('/v1/widget.js')).toMatchObject({ status: 200, cache: FOLLOWING, version: '1.2.0' });
    expect(await load('/v0/widget.js')).toMatchObject({ status: 200, cache: FOLLOWING, version: '0.9.0' });
    // A major with prereleases only follows its newest prerelease.
    expect(await load('/v2/widget.js')).toMatchObject({ status: 200, version: '2.0.0-beta.1' });
  });

  it('/widget.js is the latest release of all', async () => {
    expect(await load('/widget.js')).toMatchObject({ status: 200, cache: FOLLOWING, version: '1.2.0' });
  });

  it('finds the chunks of every kept version of the major under its prefix, for loaders cached before a deploy', async () => {
    expect(await load('/v1/widget-chunks/app-1.2.0.js')).toMatchObject({ status: 200, cache: IMMUTABLE });
    expect(await load('/v1/widget-chunks/app-1.0.0.js')).toMatchObject({ status: 200, version: '1.0.0' });
    expect((await load('/v1/widget-chunks/app-0.9.0.js')).status).toBe(404);
    expect(await load('/widget-chunks/app-0.9.0.js')).toMatchObject({ status: 200, version: '0.9.0' });
  });

  it('answers a major nobody built with the not_found envelope', async () => {
    for (const path of ['/v3/widget.js', '/v3/widget-chunks/app-1.2.0.js', '/vx/widget.js']) {
      const { answer } = await load(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error, path).toEqual({
        code: 'not_found',
        params: { reason: 'widget_version_unknown' },
      });
    }
  });

  it('answers an allowed shop origin on /v1/widget.js as any page: no widget-API CORS on a script', async () => {
    const answer = await call(stack.server.url, '/v1/widget.js', { headers: { Origin: SHOP_ORIGIN } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('vary')).toBeNull();
  });
});

describe('compareVersions', () => {
  it('orders by semver precedence', () => {
    const ordered = [
      '0.9.0',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
    ];
    const sorted = [...ordered, '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0'].reverse().sort(compareVersions);
    expect(sorted).toEqual([...ordered, '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0']);
  });
});
