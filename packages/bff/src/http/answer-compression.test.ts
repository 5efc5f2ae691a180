/**
 * JSON answers compressed over HTTP against the sandbox: a public catalog read, kept by the answer cache, in
 * brotli, gzip or as it is as each reader accepts — the first reader's answer the same bytes as the kept ones
 * but the request id, each reader's id inside the compressed body; a session catalog read compressed per
 * answer with a weak ETag that still gets its 304; a small answer as it is; nothing compressed with
 * `"compression": false`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodedBody, fetchRaw, type RawAnswer } from '../../testing/raw-http';
import {
  openWidget,
  type RunningBff,
  type Stack,
  startBff,
  startStack,
  testConfig,
} from '../../testing/stack';

let stack: Stack;
let uncompressed: RunningBff;
/** How many reads the answer cache wrote itself. */
let served = 0;

beforeAll(async () => {
  stack = await startStack();
  const answers = stack.bff.answers;
  const serve = answers.serve.bind(answers);
  answers.serve = (request, response) => {
    const hit = serve(request, response);
    if (hit) served += 1;
    return hit;
  };
  uncompressed = await startBff(stack.sandbox.url, {
    sessionSecret: stack.sessionSecret,
    config: (sandboxUrl) => testConfig(sandboxUrl, { compression: false }),
  });
});
afterAll(async () => {
  await uncompressed?.server.close();
  await stack?.close();
});

/** The shop's public destinations address now, on `baseUrl`. */
async function destinationsPath(baseUrl: string): Promise<string> {
  const path = (await openWidget(baseUrl, 'shop')).session.catalog?.path;
  if (path === undefined) throw new Error('the session named no public catalog');
  return `${path}/en/destinations`;
}

/** The decoded JSON body, checked to carry the answer's own request id. */
function jsonOf(answer: RawAnswer) {
  expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  const body = JSON.parse(decodedBody(answer).toString('utf8'));
  expect(body.meta.requestId).toBe(answer.headers['x-request-id']);
  return body;
}

describe('a kept public catalog read', () => {
  it('is kept in brotli and gzip: the first reader gets the kept bytes, each reader its own request id', async () => {
    const path = await destinationsPath(stack.server.url);
    for (const [acceptEncoding, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const before = served;
      const first = await fetchRaw(stack.server.url, path, { 'Accept-Encoding': acceptEncoding });
      const again = await fetchRaw(stack.server.url, path, { 'Accept-Encoding': acceptEncoding });
      expect(served - before, acceptEncoding).toBeGreaterThanOrEqual(1);
      for (const answer of [first, again]) {
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding'], acceptEncoding).toBe(coding);
        expect(answer.headers.vary).toBe('Accept-Encoding');
        expect(String(answer.headers.etag)).toMatch(coding === undefined ? /^"/ : /^W\/"/);
      }
      const [firstBody, againBody] = [jsonOf(first), jsonOf(again)];
      expect(againBody.data).toEqual(firstBody.data);
      expect(againBody.data.length).toBeGreaterThan(50);
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      if (coding !== undefined) {
        // The same compressed bytes but the reader's id (ids are of one length).
        expect(again.body.length).toBe(first.body.length);
        expect(again.body.length).toBeLessThan(decodedBody(again).length / 4);
      }
    }
  });

  it('is sent as it is with "compression": false', async () => {
    const path = await destinationsPath(uncompressed.server.url);
    for (let read = 0; read < 2; read += 1) {
      const answer = await fetchRaw(uncompressed.server.url, path, { 'Accept-Encoding': 'gzip, br' });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBeUndefined();
      expect(jsonOf(answer).data.length).toBeGreaterThan(50);
    }
  });
});

describe('an answer the app makes per read', () => {
  it('compresses a session catalog read, with a weak ETag that still answers 304', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const headers = { Origin: 'https://shop.example', Authorization: `Bearer ${page.token}` };
    const answer = await fetchRaw(stack.server.url, '/v1/destinations?locale=de', {
      ...headers,
      'Accept-Encoding': 'br',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    // It names the page's origin (CORS): a cache must keep one per origin and per coding.
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
    const etag = String(answer.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect(jsonOf(answer).meta.locale).toBe('de');
    const notModified = await fetchRaw(stack.server.url, '/v1/destinations?locale=de', {
      ...headers,
      'Accept-Encoding': 'br',
      'If-None-Match': etag,
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.vary).toBe('Origin, Accept-Encoding');
    const plain = await fetchRaw(stack.server.url, '/v1/destinations?locale=de', headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBe(etag.slice(2));
  });

  it('sends an answer under 1 KB as it is', async () => {
    const answer = await fetchRaw(stack.server.url, '/v1/catalog/shop', { 'Accept-Encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeLessThan(1_024);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(jsonOf(answer).data.version).toBeTruthy();
  });
});
