/**
 * The answer cache over HTTP against the sandbox: a public catalog read answered again from the kept bytes is
 * the app's own answer (every header, the body byte for byte) but for its own request id and access-log line;
 * a conditional read, a query string and a catalog that moved on go to the app; a kept answer never outlives
 * the catalog state it was built from (the old address is not found at once, not a year later). What is kept is
 * a recording of the app's answer: a header any middleware of the app adds, however it adds it, is in it.
 * Readers that reach the app together share one compression of the kept answer.
 */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openWidget, type Stack, startStack } from '../../testing/stack';
import { createLogger } from '../logger';
import { listen } from '../node-server';
import { answerHeaders, answerJson } from './answer';
import { createAnswerCache, keepAnswer } from './answer-cache';
import type { AppEnv } from './app-env';
import { requestContext } from './request-context';
import { openCompressed } from './spliced-compression';

// The real compression, counted (each call is a highest-level compression on the thread pool).
vi.mock('./spliced-compression', async (original) => {
  const real = await original<typeof import('./spliced-compression')>();
  return { ...real, openCompressed: vi.fn(real.openCompressed) };
});

let stack: Stack;
/** How many reads the answer cache wrote itself since the last `reset`. */
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
});
afterAll(async () => {
  await stack?.close();
});

/** The shop's public catalog address now. */
async function catalogPath(): Promise<string> {
  const path = (await openWidget(stack.server.url, 'shop')).session.catalog?.path;
  if (path === undefined) throw new Error('the session named no public catalog');
  return path;
}

/** A read's status, headers (without the ones that differ per answer) and body text. */
async function read(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.server.url}${path}`, { headers });
  const body = await response.text();
  const fixed = Object.fromEntries(
    [...response.headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive'].includes(name)),
  );
  return { status: response.status, requestId: response.headers.get('x-request-id'), fixed, body };
}

describe('the answer cache', () => {
  it('answers a repeated public read with the app’s answer, byte for byte but its own request id', async () => {
    const path = `${await catalogPath()}/en/destinations`;
    served = 0;
    const first = await read(path);
    expect(first.status).toBe(200);
    expect(served).toBe(0);

    const again = await read(path);
    expect(served).toBe(1);
    expect(again.status).toBe(200);
    expect(again.fixed).toEqual(first.fixed);
    expect(again.requestId).toMatch(/^req_[\w-]{20}$/);
    expect(again.requestId).not.toBe(first.requestId);
    expect(JSON.parse(again.body).meta.requestId).toBe(again.requestId);
    // The body differs from the app's only by the request id.
    expect(again.body.replace(again.requestId as string, 'ID')).toBe(
      first.body.replace(first.requestId as string, 'ID'),
    );

    const plansPath = `${path.replace(/destinations$/, 'plans')}/${JSON.parse(first.body).data[0].code}`;
    const plans = await read(plansPath);
    expect((await read(plansPath)).body.replace(/req_[\w-]{20}/, '')).toBe(
      plans.body.replace(/req_[\w-]{20}/, ''),
    );
    expect(served).toBe(2);
  });

  it('leaves conditional reads, query strings and other methods to the app', async () => {
    const path = `${await catalogPath()}/en/destinations`;
    const kept = await read(path);
    await read(path);
    served = 0;
    const etag = kept.fixed.etag as string;
    expect((await read(path, { 'If-None-Match': etag })).status).toBe(304);
    expect((await read(`${path}?x=1`)).status).toBe(200);
    expect((await fetch(`${stack.server.url}${path}`, { method: 'HEAD' })).status).toBe(200);
    expect(served).toBe(0);
  });

  it('keeps only a read at the canonical address: other spellings of it are answered by the app each time', async () => {
    const path = `${await catalogPath()}/en/destinations`;
    const code = JSON.parse((await read(path)).body).data[0].code as string;
    const plansPath = `${path.replace(/destinations$/, 'plans')}/${code}`;
    await read(plansPath);
    served = 0;
    const spellings = [
      plansPath.replace(/[A-Z]+$/, (canonical) => canonical.toLowerCase()),
      plansPath.replace(/\/en\//, '/e%6E/'),
    ];
    for (const spelling of spellings) {
      for (let round = 0; round < 2; round += 1) expect((await read(spelling)).status).toBe(200);
    }
    expect(served).toBe(0);
    expect((await read(plansPath)).status).toBe(200);
    expect(served).toBe(1);
  });

  it('never serves an answer of a catalog that moved on: the old address is not found at once', async () => {
    const before = await catalogPath();
    await read(`${before}/en/destinations`);
    served = 0;
    expect((await read(`${before}/en/destinations`)).status).toBe(200);
    expect(served).toBe(1);

    await stack.sandbox.control.bumpCatalog();
    await stack.bff.widgets.get('shop')?.catalog.refresh({ force: true });
    if ((await catalogPath()) === before) return expect.fail('the sandbox control did not move the catalog');
    const gone = await read(`${before}/en/destinations`);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body).error.params.reason).toBe('catalog_version_gone');
    expect(served).toBe(1);
  });

  it('writes an access-log line for every read it answers, with the fields of the app’s line', async () => {
    const path = `${await catalogPath()}/en/destinations`;
    const first = await read(path);
    served = 0;
    const again = await read(path);
    const third = await read(path);
    expect(served).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lineOf = (requestId: string | null) =>
      stack.logs.map((text) => JSON.parse(text)).find((entry) => entry.requestId === requestId);
    const [app, kept, keptAgain] = [
      lineOf(first.requestId),
      lineOf(again.requestId),
      lineOf(third.requestId),
    ];
    expect(kept).toMatchObject({ level: 'info', message: 'request', method: 'GET', path, status: 200 });
    expect(keptAgain).toMatchObject({ method: 'GET', path, status: 200, requestId: third.requestId });
    expect(kept.durationMs).toEqual(expect.any(Number));
    // Whoever searches the access log by field finds a kept read as they find the app's.
    expect(Object.keys(kept).sort()).toEqual(Object.keys(app).sort());
  });
});

describe('a kept answer is the recording of the app’s', () => {
  it('carries what any middleware of the app added, the Hono way too, and nothing a route did not ask to keep', async () => {
    const answers = createAnswerCache({ logger: createLogger({ write: () => {} }) });
    const state = { version: 1 };
    const app = new Hono<AppEnv>();
    app.use('*', answers.recorder);
    // A third-party style middleware: sets its header on the finished answer, after the route.
    app.use('*', async (c, next) => {
      await next();
      c.res.headers.set('X-Added-After', 'yes');
    });
    app.use('*', answerHeaders({ 'X-Security': 'on' }));
    app.use('*', requestContext(createLogger({ write: () => {} })));
    app.get('/kept', (c) => {
      keepAnswer(c, { builtFrom: state, current: () => state });
      return answerJson(c, { data: [1, 2], meta: { requestId: c.get('requestId') } }, 200);
    });
    app.get('/not-kept', (c) => answerJson(c, { data: [] }, 200));
    const appListener = getRequestListener(app.fetch);
    let servedHere = 0;
    const server = createServer((request, response) => {
      if (answers.serve(request, response)) servedHere += 1;
      else void appListener(request, response);
    });
    const listening = await listen(server);
    try {
      const first = await fetch(`${listening.url}/kept`);
      const firstBody = await first.text();
      const again = await fetch(`${listening.url}/kept`);
      const againBody = await again.text();
      expect(servedHere).toBe(1);
      expect(again.headers.get('x-added-after')).toBe('yes');
      expect(again.headers.get('x-security')).toBe('on');
      expect(again.headers.get('content-type')).toBe('application/json');
      const requestId = again.headers.get('x-request-id') as string;
      expect(requestId).not.toBe(first.headers.get('x-request-id'));
      expect(againBody).toBe(firstBody.replace(first.headers.get('x-request-id') as string, requestId));
      expect(JSON.parse(againBody)).toEqual({ data: [1, 2], meta: { requestId } });

      await fetch(`${listening.url}/not-kept`);
      await fetch(`${listening.url}/not-kept`);
      expect(servedHere).toBe(1);
      expect(answers.size).toBe(1);
    } finally {
      await listening.close();
    }
  });
});

describe('readers that reach the app together', () => {
  it('share one compression of the answer kept for them, and each gets its own request id in it', async () => {
    const answers = createAnswerCache({ logger: createLogger({ write: () => {} }), compress: true });
    const state = { version: 1 };
    const readers = 5;
    let arrived = 0;
    let release = () => {};
    const allArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = new Hono<AppEnv>();
    app.use('*', answers.recorder);
    app.use('*', answerHeaders({}, { compress: true }));
    app.use('*', requestContext(createLogger({ write: () => {} })));
    app.get('/kept', async (c) => {
      keepAnswer(c, { builtFrom: state, current: () => state });
      // Every reader is in the app before any answers: none finds the answer kept yet.
      arrived += 1;
      if (arrived === readers) release();
      await allArrived;
      const data = Array.from({ length: 100 }, (_, index) => ({ index, name: `plan ${index}` }));
      return answerJson(c, { data, meta: { requestId: c.get('requestId') } }, 200);
    });
    const appListener = getRequestListener(app.fetch);
    const server = createServer((request, response) => {
      if (!answers.serve(request, response)) void appListener(request, response);
    });
    const listening = await listen(server);
    vi.mocked(openCompressed).mockClear();
    try {
      const answered = await Promise.all(
        Array.from({ length: readers }, async () => {
          const response = await fetch(`${listening.url}/kept`, { headers: { 'Accept-Encoding': 'br' } });
          // fetch decodes the brotli: a broken stream would fail here.
          return { response, body: await response.text() };
        }),
      );
      // One brotli and one gzip for all of them, not one of each per reader.
      expect(vi.mocked(openCompressed)).toHaveBeenCalledTimes(2);
      for (const { response, body } of answered) {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding')).toBe('br');
        const decoded = JSON.parse(body);
        expect(decoded.data).toHaveLength(100);
        expect(decoded.meta.requestId).toBe(response.headers.get('x-request-id'));
      }
    } finally {
      await listening.close();
    }
  });
});
