/**
 * Property-based bad input at every BFF endpoint over real HTTP: generated bodies, queries, headers, path
 * segments and content types, oversized and deeply nested JSON, invalid UTF-8 and unicode tricks. Every answer
 * is the BFF's error envelope with a 4xx, or a success its schema accepts; never a 5xx, a stack trace or a hang.
 */
import {
  ApiErrorEnvelopeSchema,
  CHECKOUT_SECRET_HEADER,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
} from '@esim-embed/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  ROUTES,
  type RouteSpec,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  TEST_ENV,
  testConfig,
  type WidgetPage,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { sendRaw } from '../harness/raw-http';
import { findSecrets, serverSecrets } from '../harness/secret-scan';
import { verdict } from './answer-verdict';
import { contentType, headerValue, hostileBody, hostileQuery, pathSegment } from './hostile-input';

const RUNS_PER_ENDPOINT = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 40);
const BODY_LIMIT = 16_384;

let stack: Stack;
let page: WidgetPage;
/** A checkout that awaits the partner's payment, and one that is ready (installation data exists). */
let waiting: { id: string; clientSecret: string };
let ready: { id: string; clientSecret: string };
let offerId = '';
let esimId = '';
let manageToken = '';
/** Requests sent so far: each gets a client address of its own. */
let clients = 0;

beforeAll(async () => {
  stack = await startStack({
    config: (url) => {
      const config = testConfig(url);
      // Generous limits: the properties are about bad input, not about rate limits (tested elsewhere).
      const limits = {
        sessionsPerIpPerMinute: 10_000,
        requestsPerSessionPerMinute: 100_000,
        quotesPerSession: 1_000,
        checkoutsPerSession: 100,
      };
      // Each request comes through a pretend proxy from an address of its own (see below), so that hostile
      // partner secrets do not spend the real one's failure budget (tested in the two-process suite).
      return {
        ...config,
        trustedProxyHops: 1,
        widgets: config.widgets.map((widget) => ({ ...widget, limits })),
      };
    },
  });
  page = await openWidget(stack.server.url, 'shop-pay');
  const direct = await openWidget(stack.server.url, 'shop');
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  offerId = plans.body.data[0].offerId;
  const buy = async (widget: WidgetPage) => {
    const quote = await widget.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
    const created = await widget.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(created.status).toBe(201);
    return created.body.data as { id: string; clientSecret: string };
  };
  waiting = await buy(page);
  ready = await buy(direct);
  await eventually(async () => {
    const answer = await direct.get(`/v1/checkouts/${ready.id}`, {
      [CHECKOUT_SECRET_HEADER]: ready.clientSecret,
    });
    return answer.body.data.status === 'ready' ? true : undefined;
  });
  // The fuzzed widget requests carry a `shop` session, the widget of the ready checkout.
  page = await openWidget(stack.server.url, 'shop');
  const orders = await stack.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(ready.id);
  esimId = orders?.[0]?.esim?.id ?? 'esim_unknown';
  const manage = await page.post(
    `/v1/checkouts/${ready.id}/manage-link`,
    {},
    {
      [CHECKOUT_SECRET_HEADER]: ready.clientSecret,
      'Idempotency-Key': newKey(),
    },
  );
  manageToken = manage.status === 201 ? String(manage.body.data.manageToken) : 'no-manage-token';
});
afterAll(async () => {
  await stack?.close();
});

/** One endpoint as the fuzzer sees it: a route of the route table with a body shaped like its request. */
interface Endpoint {
  method: string;
  /** The route table's path, with `{…}` filled by real or generated segments. */
  path: string;
  auth: RouteSpec['auth'];
  body?: Record<string, unknown>;
  query?: string[];
}

/** Request bodies the generated ones start from (near misses of valid requests); any other route gets `{}`. */
const BODY_TEMPLATES: Record<string, Record<string, unknown>> = {
  'POST /v1/sessions': { widgetId: 'shop' },
  'POST /v1/quotes': { offerId: 'off', locale: 'en' },
  'POST /v1/checkouts': { quoteId: 'quo', locale: 'en', termsAccepted: true, email: 'a@b.example' },
  'POST /v1/checkouts/{id}/delivery-links': { maxViews: 1, expiresInMinutes: 60 },
  'POST /v1/partner/checkouts/{id}/confirm': { paymentReference: 'pay_1' },
  'POST /v1/partner/esims/{esimId}/action-requests': { reasonCode: 'unused_profile', reasonDetail: 'x' },
  'POST /v1/partner/esims/{esimId}/delivery-links': { maxViews: 1, expiresInMinutes: 60 },
};

/** Every route of the route table (new routes are fuzzed without anyone listing them here). */
const ENDPOINTS: Endpoint[] = ROUTES.map((route) => {
  const shape = (route.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return {
    method: route.method,
    path: route.path,
    auth: route.auth,
    body: route.method === 'POST' ? (BODY_TEMPLATES[`${route.method} ${route.path}`] ?? {}) : undefined,
    query: shape === undefined ? undefined : Object.keys(shape),
  };
});

/** The real value of a path parameter, so that some requests get past the lookups. */
function realSegment(path: string): string {
  if (path.includes('{code}')) return 'DE';
  if (path.startsWith('/v1/widgets/{widgetId}')) return 'shop';
  if (path.includes('{esimId}')) return esimId;
  return (path.includes('/partner/') ? waiting : ready).id;
}

const ODD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];

/** Either the real value, a generated one, or none. */
const realOrHostile = (real: () => string) =>
  fc
    .oneof({ weight: 3, arbitrary: fc.constant('real') }, fc.constant('none'), headerValue)
    .map((choice) => (choice === 'real' ? real() : choice === 'none' ? undefined : choice));

function requestFor(endpoint: Endpoint) {
  const checkoutFor = () => (endpoint.path.includes('partner') ? waiting : ready);
  return fc.record({
    method: fc.oneof({ weight: 5, arbitrary: fc.constant(endpoint.method) }, fc.constantFrom(...ODD_METHODS)),
    segment: fc.oneof(
      { weight: 2, arbitrary: fc.constant('real') },
      fc.constantFrom('DE', 'de', 'XX', 'chk_doesnotexist000'),
      pathSegment,
    ),
    query: endpoint.query === undefined ? fc.constant('') : hostileQuery(endpoint.query),
    contentType,
    origin: realOrHostile(() => SHOP_ORIGIN),
    authorization: realOrHostile(() => `Bearer ${page.token}`),
    checkoutSecret: realOrHostile(() => checkoutFor().clientSecret),
    partnerSecret: realOrHostile(() => PARTNER_SECRET),
    manageToken: realOrHostile(() => manageToken),
    idempotencyKey: realOrHostile(newKey),
    extraHeader: fc.option(
      fc.tuple(
        fc.constantFrom('X-Forwarded-For', 'Accept-Language', 'If-None-Match', 'Accept', 'Cookie'),
        headerValue,
      ),
      { nil: undefined },
    ),
    body:
      endpoint.body === undefined
        ? fc.oneof(fc.constant(undefined), hostileBody({}, BODY_LIMIT))
        : hostileBody(endpoint.body, BODY_LIMIT),
  });
}

describe('bad input at every BFF endpoint', () => {
  const cases = new Map<string, { runs: number; statuses: Map<number, number> }>();

  it.each(ENDPOINTS)('$method $path', async (endpoint) => {
    const route = ROUTES.find(
      (candidate) => candidate.method === endpoint.method && candidate.path === endpoint.path,
    );
    const tally = { runs: 0, statuses: new Map<number, number>() };
    cases.set(`${endpoint.method} ${endpoint.path}`, tally);
    await fc.assert(
      fc.asyncProperty(requestFor(endpoint), async (request) => {
        const segment = request.segment === 'real' ? realSegment(endpoint.path) : request.segment;
        const path = endpoint.path.replace(/\{[a-zA-Z]+\}/, segment);
        const target = request.query === '' ? path : `${path}?${request.query}`;
        const headers: Array<[string, string]> = [];
        const add = (name: string, value: string | undefined) => {
          if (value !== undefined) headers.push([name, value]);
        };
        add('Content-Type', request.contentType);
        if (endpoint.auth !== 'public' && endpoint.auth !== 'partner') add('Origin', request.origin);
        if (endpoint.auth.startsWith('session')) add('Authorization', request.authorization);
        if (endpoint.auth === 'session+secret') add(CHECKOUT_SECRET_HEADER, request.checkoutSecret);
        if (endpoint.auth === 'session+manage') add(MANAGE_TOKEN_HEADER, request.manageToken);
        if (endpoint.auth === 'partner') add(PARTNER_SECRET_HEADER, request.partnerSecret);
        if (endpoint.method === 'POST') add('Idempotency-Key', request.idempotencyKey);
        if (request.extraHeader !== undefined) add(...request.extraHeader);
        // The proxy appends the address it saw last, after any the request brought.
        clients += 1;
        add('X-Forwarded-For', `198.18.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`);
        const answer = await sendRaw(stack.server.port, {
          method: request.method,
          target,
          headers,
          body: request.body,
        });
        tally.runs += 1;
        tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
        const sameRoute = request.method === endpoint.method && request.segment === 'real';
        const problem = verdict(answer, {
          envelope: ApiErrorEnvelopeSchema,
          success: sameRoute && route?.contentType === undefined ? route?.response : undefined,
          method: request.method,
        });
        expect(problem, `${request.method} ${target}`).toBeUndefined();
      }),
      { numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
    );
  });

  it('logged no 5xx and no internal error while fuzzed', () => {
    const failures = stack.logs.filter((line) => /"level":"error"|"status":5\d\d/.test(line));
    expect(failures).toEqual([]);
  });

  it('wrote no secret to its logs while fuzzed', () => {
    const book = serverSecrets(TEST_ENV, PARTNER_SECRET, stack.sessionSecret);
    book.set('session token', page.token);
    book.set('client secret (waiting)', waiting.clientSecret);
    book.set('client secret (ready)', ready.clientSecret);
    if (manageToken.length > 16) book.set('manage token', manageToken);
    expect(findSecrets(stack.logs, book)).toEqual([]);
  });

  afterAll(() => {
    const figures: Figure[] = [...cases].map(([name, tally]) => [
      name,
      `${tally.runs} cases · ${[...tally.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}`,
    ]);
    const total = [...cases.values()].reduce((sum, tally) => sum + tally.runs, 0);
    figures.push(['total (no 5xx, no stack trace, no hang)', `${total} cases`]);
    recordFigures('bad input · BFF', figures);
  });
});
