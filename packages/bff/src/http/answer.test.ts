/**
 * The one way out: outside production a handler answering a shape its route does not promise — or an error
 * its route does not list — fails loudly (`internal`, logged with the complaint) while production answers it unchecked; answers with parts
 * encoded once are the bytes `JSON.stringify` writes, and two apps never share those encodings.
 */
import { API_VERSION, apiRoutes, type RouteSpec } from '@esim-embed/shared';
import { type Handler, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { createLogger } from '../logger';
import { type AuthChains, mountRoutes, tagRoutes } from '../routes/mount-routes';
import { SECURITY_HEADERS } from '../security/security-headers';
import { answerHeaders, answerJson, answerMeta, encodedOnce } from './answer';
import type { AppEnv } from './app-env';
import { encodedJson, stringifyAnswer } from './encoded-json';
import { createErrorHandler } from './error-handler';
import type { IdempotencyOptions } from './idempotency';
import { requestContext } from './request-context';

const currentCatalog: RouteSpec = apiRoutes.currentCatalog;
const noAuth = Object.fromEntries(
  ['public', 'origin', 'session', 'session+secret', 'session+manage', 'partner'].map((auth) => [auth, []]),
) as unknown as AuthChains;
const unusedIdempotency = {} as IdempotencyOptions;

/** An app with the BFF's answer chain and one described route, `currentCatalog`, answered by `handler`. */
function appAnswering(handler: Handler<AppEnv>, checkShapes: boolean) {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line) });
  const app = new Hono<AppEnv>();
  app.onError(createErrorHandler(logger));
  app.use('*', answerHeaders(SECURITY_HEADERS, { checkShapes }));
  app.use('*', requestContext(logger));
  tagRoutes(app, [currentCatalog]);
  mountRoutes(app, {
    handlers: { currentCatalog: handler } as never,
    auth: noAuth,
    idempotency: { session: unusedIdempotency, partner: unusedIdempotency },
    routes: [currentCatalog],
  });
  return { app, lines };
}

/** What `currentCatalog` promises, but for `version`, which must be a string. */
const wrongShape: Handler<AppEnv> = (c) =>
  answerJson(
    c,
    {
      data: { version: 42, path: '/v1/catalog/shop/1', locales: ['en'] },
      meta: { requestId: c.get('requestId'), apiVersion: API_VERSION },
    },
    200,
  );

const rightShape: Handler<AppEnv> = (c) =>
  answerJson(
    c,
    { data: { version: '42', path: '/v1/catalog/shop/42', locales: ['en'] }, meta: answerMeta(c) },
    200,
  );

describe('the answer’s shape, checked outside production', () => {
  it('fails a handler that answers a shape its route does not promise, loudly', async () => {
    const { app, lines } = appAnswering(wrongShape, true);
    const response = await app.request('/v1/catalog/shop');
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('internal');
    // No schema detail leaves the server; the log says which route and which field.
    expect(JSON.stringify(body)).not.toContain('version');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const failure = lines.map((line) => JSON.parse(line)).find((line) => line.message === 'request failed');
    expect(failure?.cause?.name).toBe('AnswerShapeError');
    expect(failure?.cause?.message).toContain('currentCatalog');
    expect(failure?.cause?.message).toContain('data.version');
  });

  it('lets an answer of the promised shape through', async () => {
    const { app } = appAnswering(rightShape, true);
    const response = await app.request('/v1/catalog/shop');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { version: unknown } }).data.version).toBe('42');
  });

  it('fails an error its route does not list, loudly, as internal; lets a listed one through', async () => {
    const unlisted: Handler<AppEnv> = () => {
      throw new ApiError('quote_expired');
    };
    const { app, lines } = appAnswering(unlisted, true);
    const response = await app.request('/v1/catalog/shop');
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('internal');
    const failure = lines.map((line) => JSON.parse(line)).find((line) => line.message === 'request failed');
    expect(failure?.cause?.name).toBe('AnswerShapeError');
    expect(failure?.cause?.message).toContain('currentCatalog');
    expect(failure?.cause?.message).toContain('quote_expired');

    const listed: Handler<AppEnv> = () => {
      throw new ApiError('storefront_app_not_found');
    };
    const answered = await appAnswering(listed, true).app.request('/v1/catalog/shop');
    expect(answered.status).toBe(404);
    expect(((await answered.json()) as { error: { code: string } }).error.code).toBe(
      'storefront_app_not_found',
    );
    // In production the unlisted error goes out as thrown.
    const unchecked = await appAnswering(unlisted, false).app.request('/v1/catalog/shop');
    expect(((await unchecked.json()) as { error: { code: string } }).error.code).toBe('quote_expired');
  });

  it('does not check in production (the flag off): the answer goes out as built', async () => {
    const { app } = appAnswering(wrongShape, false);
    const response = await app.request('/v1/catalog/shop');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { version: unknown } }).data.version).toBe(42);
  });
});

describe('an answer’s meta', () => {
  it('names the request’s id, as its X-Request-Id header does, and the API version', async () => {
    const { app } = appAnswering(rightShape, true);
    const response = await app.request('/v1/catalog/shop');
    expect(response.status).toBe(200);
    const { meta } = (await response.json()) as { meta: unknown };
    expect(meta).toEqual({ requestId: response.headers.get('X-Request-Id'), apiVersion: API_VERSION });
  });
});

describe('answers with parts encoded once', () => {
  it('are the bytes JSON.stringify writes', () => {
    const list = [{ code: 'TR', name: 'Türkiye "quoted"', price: 1.5, tags: ['a', null] }];
    const value = { data: { token: 't', list, nested: [list, list] }, meta: { n: 1 } };
    const withParts = {
      data: { token: 't', list: encodedJson(list), nested: [encodedJson(list), encodedJson(list)] },
      meta: { n: 1 },
    };
    expect(stringifyAnswer(withParts).toString()).toBe(JSON.stringify(value));
    expect(stringifyAnswer(encodedJson(list)).toString()).toBe(JSON.stringify(list));
    expect(stringifyAnswer({ plain: 'no parts', list })).toBe(JSON.stringify({ plain: 'no parts', list }));
  });

  it('are encoded once per app: two apps in one process keep their own', async () => {
    const list = [{ code: 'TR' }];
    const route = (c: Parameters<Handler<AppEnv>>[0]) => answerJson(c, { data: encodedOnce(c, list) }, 200);
    const first = new Hono<AppEnv>().use('*', answerHeaders({})).get('/', route);
    const second = new Hono<AppEnv>().use('*', answerHeaders({})).get('/', route);
    expect(await (await first.request('/')).text()).toBe('{"data":[{"code":"TR"}]}');
    // Kept by the first app for as long as it holds the list; the second has never encoded it.
    list.push({ code: 'DE' });
    expect(await (await first.request('/')).text()).toBe('{"data":[{"code":"TR"}]}');
    expect(await (await second.request('/')).text()).toBe('{"data":[{"code":"TR"},{"code":"DE"}]}');
  });
});
