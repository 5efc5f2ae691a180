/**
 * @module
 * Generated requests to one route of the BFF: its genuine request (real path parameters, a valid body, its
 * query) broken in every part a client controls — the method, each path parameter, the query string, the body
 * (near misses, values at the limits, prototype-pollution keys, invalid UTF-8, oversized, deeply nested), the
 * content type, and every credential: the genuine one, a valid one of another widget, checkout, eSIM or
 * partner, a tampered or replayed one, garbage, or none. And the genuine request itself, every part of it as a
 * page and the partner's server send it (what the suites that check every route's answers ask).
 */
import {
  CHECKOUT_SECRET_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
} from '@esim-embed/shared';
import fc from 'fast-check';
import {
  contentType,
  headerValue,
  hostileBody,
  hostileQuery,
  nearMiss,
  pathSegment,
} from '../bad-input/hostile-input';
import { newKey, PARTNER_SECRET, type RouteSpec, SHOP_ORIGIN } from '../harness/bff-testing';
import { type FuzzWorld, OTHER_PARTNER_SECRET, RUB_ORIGIN } from './fuzz-world';
import { pathParameters, type RouteInput, worldIds } from './route-inputs';

/** The BFF's body limit (bytes). */
export const BODY_LIMIT = 16_384;

/** One generated request, as bytes for the raw client. */
export interface FuzzRequest {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body: Buffer | undefined;
  /** The route's own method and real path parameters: a success must then be the route's own answer. */
  genuineRoute: boolean;
}

const ODD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];

/** An idempotency key sent by many generated requests with different bodies: replays and conflicts. */
const REPLAYED_KEY = `fuzz-replayed-${Date.now()}`;

/** A credential: usually the genuine one, else another's valid one, a tampered one, garbage or none. */
function credential(genuine: () => string, others: Array<() => string>): fc.Arbitrary<string | undefined> {
  return fc
    .oneof(
      { weight: 6, arbitrary: fc.constant(genuine) },
      ...others.map((other) => ({ weight: 1, arbitrary: fc.constant(other) })),
      { weight: 1, arbitrary: fc.constant(() => tamper(genuine())) },
      { weight: 1, arbitrary: headerValue.map((value) => () => value) },
      { weight: 1, arbitrary: fc.constant(() => undefined as string | undefined) },
    )
    .map((make) => make());
}

/** The value with its last character changed (a signature or secret that is almost right). */
function tamper(value: string): string {
  const last = value.at(-1);
  return `${value.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

/** The real value of a path parameter, another resource's real value, a near one, or a hostile segment. */
function parameter(real: string, others: readonly string[]): fc.Arbitrary<{ value: string; real: boolean }> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ value: encodeURIComponent(real), real: true }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...others, `${real}x`, real.toUpperCase(), `${real}%00`).map((value) => ({
        value,
        real: false,
      })),
    },
    { weight: 2, arbitrary: pathSegment.map((value) => ({ value, real: false })) },
  );
}

/** The query string: the genuine one, a hostile one, or none. */
function queryOf(input: RouteInput): fc.Arbitrary<string> {
  const names = Object.keys(input.query ?? {});
  const genuine = new URLSearchParams(input.query ?? {}).toString();
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(genuine) },
    { weight: 2, arbitrary: hostileQuery(names.length > 0 ? names : ['locale']) },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

/** Requests to `route` in `world`. */
export function requestsTo(route: RouteSpec, input: RouteInput, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const realParams = input.params?.(world) ?? {};
  const otherIds = input.others?.(world) ?? worldIds(world);
  const params = pathParameters(route).map((name) => {
    const real = realParams[name];
    if (real === undefined) throw new Error(`${route.id}: no real value for {${name}}`);
    return parameter(
      real,
      otherIds.filter((id) => id !== real),
    ).map((generated) => [name, generated] as const);
  });
  const template = input.body?.(world);
  const bodies: fc.Arbitrary<Buffer | undefined> =
    template === undefined
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: hostileBody({}, BODY_LIMIT) },
        )
      : fc.oneof(
          { weight: 2, arbitrary: fc.constant(Buffer.from(JSON.stringify(template))) },
          {
            weight: 3,
            arbitrary: nearMiss(template).map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
          },
          { weight: 3, arbitrary: hostileBody(template, BODY_LIMIT) },
        );
  const page = world.page;
  const others = world.otherPages;
  return fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, fc.constantFrom(...ODD_METHODS)),
      params: fc.tuple(...params),
      query: queryOf(input),
      body: bodies,
      contentType: fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, contentType),
      origin: credential(
        () => SHOP_ORIGIN,
        [
          () => RUB_ORIGIN,
          () => 'null',
          () => 'https://evil.example',
          () => 'https://shop.example.evil.example',
        ],
      ),
      authorization: credential(
        () => `Bearer ${page.token}`,
        [
          () => `Bearer ${others.shopPay.token}`,
          () => `Bearer ${others.rub.token}`,
          () => `Bearer ${others.otherPartner.token}`,
          () => page.token,
          () => `Basic ${page.token}`,
        ],
      ),
      checkoutSecret: credential(
        () => world.ready.clientSecret,
        [() => world.waiting.clientSecret, () => world.esim.clientSecret],
      ),
      manageToken: credential(
        () => world.esim.manageToken,
        [() => world.helpEsim.manageToken, () => world.ready.clientSecret],
      ),
      partnerSecret: credential(
        () => PARTNER_SECRET,
        [() => OTHER_PARTNER_SECRET, () => OTHER_PARTNER_SECRET, () => PARTNER_SECRET.toUpperCase()],
      ),
      idempotencyKey: credential(newKey, [() => REPLAYED_KEY, () => REPLAYED_KEY, () => 'a'.repeat(256)]),
      extraHeader: fc.option(
        fc.tuple(
          fc.constantFrom(
            'Accept-Language',
            'If-None-Match',
            'Accept',
            'Cookie',
            'X-HTTP-Method-Override',
            'Access-Control-Request-Method',
          ),
          headerValue,
        ),
        { nil: undefined },
      ),
    })
    .map((generated) => requestOf(route, generated));
}

/** What one request is made of, each part as generated (or genuine). */
interface RequestParts {
  method: string;
  params: ReadonlyArray<readonly [string, { value: string; real: boolean }]>;
  query: string;
  body: Buffer | undefined;
  contentType: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  checkoutSecret: string | undefined;
  manageToken: string | undefined;
  partnerSecret: string | undefined;
  idempotencyKey: string | undefined;
  extraHeader?: readonly [string, string] | undefined;
}

/** The request to `route` made of `parts`. */
function requestOf(route: RouteSpec, parts: RequestParts): FuzzRequest {
  let path = route.path;
  for (const [name, { value }] of parts.params) path = path.replace(`{${name}}`, value);
  const headers: Array<[string, string]> = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) headers.push([name, value]);
  };
  add('Content-Type', parts.contentType);
  add('Origin', parts.origin);
  add('Authorization', parts.authorization);
  // Credentials of other kinds of auth ride along too: a route must ignore what is not its own.
  add(CHECKOUT_SECRET_HEADER, parts.checkoutSecret);
  add(MANAGE_TOKEN_HEADER, parts.manageToken);
  add(PARTNER_SECRET_HEADER, parts.partnerSecret);
  add(IDEMPOTENCY_KEY_HEADER, parts.idempotencyKey);
  if (parts.extraHeader !== undefined) add(...parts.extraHeader);
  return {
    method: parts.method,
    target: parts.query === '' ? path : `${path}?${parts.query}`,
    headers,
    body: parts.body,
    genuineRoute: parts.method === route.method && parts.params.every(([, parameter]) => parameter.real),
  };
}

/**
 * The genuine request to `route` in `world`: its method, real path parameters, query and body, and every
 * credential the genuine one (as a page of `shop` on its allowed origin and the partner's server would send
 * them), under a fresh `Idempotency-Key`.
 */
export function genuineRequest(route: RouteSpec, input: RouteInput, world: FuzzWorld): FuzzRequest {
  const realParams = input.params?.(world) ?? {};
  const body = input.body?.(world);
  return requestOf(route, {
    method: route.method,
    params: pathParameters(route).map((name) => {
      const value = realParams[name];
      if (value === undefined) throw new Error(`${route.id}: no real value for {${name}}`);
      return [name, { value: encodeURIComponent(value), real: true }] as const;
    }),
    query: new URLSearchParams(input.query ?? {}).toString(),
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
    contentType: body === undefined ? undefined : 'application/json',
    origin: SHOP_ORIGIN,
    authorization: `Bearer ${world.page.token}`,
    checkoutSecret: world.ready.clientSecret,
    manageToken: world.esim.manageToken,
    partnerSecret: PARTNER_SECRET,
    idempotencyKey: newKey(),
  });
}
