/**
 * The widget's files and the static site over HTTP, compressed: brotli, gzip or the bytes as they are as the
 * request's `Accept-Encoding` says, `Vary: Accept-Encoding`, an ETag per coding with its 304, HEAD with the
 * GET's headers, tiny files and compressed types as they are, a rebuilt file read again, and every file as
 * it is when the config turns compression off. Read with `node:http`, which does not decode what it gets.
 * What is kept in memory stays within its bound: the least recently served file goes first.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodedBody, fetchRaw } from '../../testing/raw-http';
import { type RunningBff, type Stack, startBff, startStack, testConfig } from '../../testing/stack';
import { createStaticFiles, type FoundFile } from './static-files';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const widgetDist = mkdtempSync(join(tmpdir(), 'widget-dist-'));
const siteRoot = mkdtempSync(join(tmpdir(), 'site-root-'));

/** A script of some 6 KB that compresses as the widget's do. */
const APP_CHUNK = Buffer.from(
  Array.from(
    { length: 120 },
    (_, i) => `export function step${i}(value) { return value * ${i} + 1; }\n`,
  ).join(''),
);
/** A script below the size worth compressing. */
const TINY_CHUNK = Buffer.from('export const tiny = 1;\n'.repeat(20));
const INDEX_HTML = Buffer.from(
  `<!doctype html><title>shop</title>${'<p>Travel with an eSIM.</p>\n'.repeat(100)}`,
);
const LOGO_PNG = randomBytes(4_096);

let stack: Stack;
let uncompressed: RunningBff;
beforeAll(async () => {
  mkdirSync(join(widgetDist, 'widget-chunks'));
  writeFileSync(join(widgetDist, 'widget.js'), "import('./widget-chunks/app.js');");
  writeFileSync(join(widgetDist, 'widget-chunks', 'app.js'), APP_CHUNK);
  writeFileSync(join(widgetDist, 'widget-chunks', 'tiny.js'), TINY_CHUNK);
  writeFileSync(join(widgetDist, 'integrity.json'), JSON.stringify({ version: '1.0.0', files: {} }));
  writeFileSync(join(siteRoot, 'index.html'), INDEX_HTML);
  writeFileSync(join(siteRoot, 'logo.png'), LOGO_PNG);
  stack = await startStack({ widgetDist, siteRoot });
  uncompressed = await startBff(stack.sandbox.url, {
    sessionSecret: stack.sessionSecret,
    config: (sandboxUrl) => testConfig(sandboxUrl, { compression: false }),
    widgetDist,
    siteRoot,
  });
});
afterAll(async () => {
  await uncompressed?.server.close();
  await stack?.close();
});

const CHUNK = '/widget@1.0.0/widget-chunks/app.js';

describe('negotiation', () => {
  it('sends brotli to a browser, smaller, with its length, and the file’s own bytes once decoded', async () => {
    const answer = await fetchRaw(stack.server.url, CHUNK, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe(IMMUTABLE);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(APP_CHUNK.length / 4);
    expect(decodedBody(answer).equals(APP_CHUNK)).toBe(true);
  });

  it('sends gzip to a client without brotli, or that wants gzip more', async () => {
    for (const acceptEncoding of ['gzip, deflate', 'br;q=0.5, gzip', 'x-gzip']) {
      const answer = await fetchRaw(stack.server.url, CHUNK, { 'Accept-Encoding': acceptEncoding });
      expect(answer.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(Number(answer.headers['content-length']), acceptEncoding).toBe(answer.body.length);
      expect(decodedBody(answer).equals(APP_CHUNK), acceptEncoding).toBe(true);
    }
  });

  it('sends the bytes as they are without the header, or when every coding is refused', async () => {
    const requests: Record<string, string>[] = [
      {},
      { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
      { 'Accept-Encoding': 'zstd' },
    ];
    for (const headers of requests) {
      const answer = await fetchRaw(stack.server.url, CHUNK, headers);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.body.equals(APP_CHUNK)).toBe(true);
      expect(Number(answer.headers['content-length'])).toBe(APP_CHUNK.length);
    }
  });

  it('compresses a tiny file only for a client that refuses it as it is', async () => {
    const path = '/widget@1.0.0/widget-chunks/tiny.js';
    const asIs = await fetchRaw(stack.server.url, path, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(asIs.headers['content-encoding']).toBeUndefined();
    expect(asIs.body.equals(TINY_CHUNK)).toBe(true);
    const refused = await fetchRaw(stack.server.url, path, { 'Accept-Encoding': 'gzip, identity;q=0' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(decodedBody(refused).equals(TINY_CHUNK)).toBe(true);
    // Nothing acceptable at all: the bytes as they are rather than no answer.
    const nothing = await fetchRaw(stack.server.url, path, { 'Accept-Encoding': 'identity;q=0, *;q=0' });
    expect(nothing.status).toBe(200);
    expect(nothing.body.equals(TINY_CHUNK)).toBe(true);
  });

  it('sends a compressed type (png) as it is, with no Vary', async () => {
    const answer = await fetchRaw(stack.server.url, '/logo.png', { 'Accept-Encoding': 'gzip, br' });
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body.equals(LOGO_PNG)).toBe(true);
  });

  it('compresses the static site’s pages too', async () => {
    const answer = await fetchRaw(stack.server.url, '/', { 'Accept-Encoding': 'br' });
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(decodedBody(answer).equals(INDEX_HTML)).toBe(true);
  });
});

describe('validators', () => {
  it('gives each coding its own ETag and answers 304 only for the coding the client holds', async () => {
    const tags = new Set<string>();
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const answer = await fetchRaw(stack.server.url, CHUNK, { 'Accept-Encoding': acceptEncoding });
      const etag = String(answer.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      tags.add(etag);
      const again = await fetchRaw(stack.server.url, CHUNK, {
        'Accept-Encoding': acceptEncoding,
        'If-None-Match': etag,
      });
      expect(again.status, acceptEncoding).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers.vary).toBe('Accept-Encoding');
      expect(again.headers['cache-control']).toBe(IMMUTABLE);
      // A weak comparison, as RFC 9110 wants for If-None-Match.
      const weak = await fetchRaw(stack.server.url, CHUNK, {
        'Accept-Encoding': acceptEncoding,
        'If-None-Match': `"other", W/${etag}`,
      });
      expect(weak.status).toBe(304);
    }
    expect(tags.size).toBe(3);
    // The gzip tag does not validate the brotli answer: the client gets the brotli bytes.
    const gzipTag = String(
      (await fetchRaw(stack.server.url, CHUNK, { 'Accept-Encoding': 'gzip' })).headers.etag,
    );
    const other = await fetchRaw(stack.server.url, CHUNK, {
      'Accept-Encoding': 'br',
      'If-None-Match': gzipTag,
    });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
  });

  it('answers HEAD with the GET’s headers and no body', async () => {
    const headers = { 'Accept-Encoding': 'gzip, br' };
    const get = await fetchRaw(stack.server.url, CHUNK, headers);
    const head = await fetchRaw(stack.server.url, CHUNK, headers, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-encoding',
      'content-length',
      'content-type',
      'etag',
      'vary',
      'cache-control',
    ]) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('reads a rebuilt file again: new bytes, new ETag', async () => {
    const path = join(siteRoot, 'rebuilt.css');
    const before = Buffer.from('.a { color: red; }\n'.repeat(100));
    const after = Buffer.from('.b { color: blue; }\n'.repeat(120));
    writeFileSync(path, before);
    const first = await fetchRaw(stack.server.url, '/rebuilt.css', { 'Accept-Encoding': 'br' });
    expect(decodedBody(first).equals(before)).toBe(true);
    writeFileSync(path, after);
    const second = await fetchRaw(stack.server.url, '/rebuilt.css', { 'Accept-Encoding': 'br' });
    expect(decodedBody(second).equals(after)).toBe(true);
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('with "compression": false', () => {
  it('sends every file as it is, with no Vary, still with an ETag and its 304', async () => {
    const answer = await fetchRaw(uncompressed.server.url, CHUNK, { 'Accept-Encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body.equals(APP_CHUNK)).toBe(true);
    const again = await fetchRaw(uncompressed.server.url, CHUNK, {
      'If-None-Match': String(answer.headers.etag),
    });
    expect(again.status).toBe(304);
  });
});

describe('the files kept in memory', () => {
  it('stay within their bound: serving another file lets the least recently served one go', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kept-files-'));
    const script = (name: string, text: string) => {
      const path = join(root, name);
      writeFileSync(path, Buffer.from(`export const ${name.replace('.js', '')} = '${text}';\n`.repeat(150)));
      const { size, mtimeMs } = statSync(path);
      return { path, size, mtimeMs };
    };
    const first = script('first.js', 'kept');
    const second = script('second.js', 'other');
    // Room for one of the two files in all its codings (some 6 KB as it is, a little more compressed), not both.
    const files = createStaticFiles({ compress: true, maxKeptBytes: first.size + 2_048 });
    const app = new Hono();
    let found: FoundFile = first;
    app.get('/file', (c) => files.answer(c, found, {}));
    const etagOf = async () => (await app.request('/file')).headers.get('ETag');

    const kept = await etagOf();
    // Same size and time on disk but other bytes: a kept file is answered from memory, so the old ETag.
    writeFileSync(first.path, Buffer.from("export const first = 'gone';\n".repeat(150)));
    expect(await etagOf()).toBe(kept);
    found = second;
    await etagOf();
    found = first;
    // The second file took the room: the first is read again, its new bytes with their new ETag.
    expect(await etagOf()).not.toBe(kept);
  });
});
