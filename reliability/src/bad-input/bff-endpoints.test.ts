/**
 * Property-based bad input at every BFF endpoint over real HTTP: generated bodies, queries, headers, path
 * segments and content types, oversized and deeply nested JSON, invalid UTF-8 and unicode tricks. Every answer
 * is the BFF's error envelope with a 4xx, or a success its schema accepts; never a 5xx, a stack trace or a hang.
 */
import { ApiErrorEnvelopeSchema, CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  ROUTES,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
  type WidgetPage,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { sendRaw } from '../harness/raw-http';
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
      return { ...config, widgets: config.widgets.map((widget) => ({ ...widget, limits })) };
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
  // The fuzzed requests below go to the `shop-pay` session's token (direct checkouts place real orders).
  page = await openWidget(stack.server.url, 'shop');
  ready = { ...ready };
});
afterAll(async () => {
  await stack?.close();
});

/** One endpoint as the fuzzer sees it. */
interface Endpoint {
  method: string;
  /** The route table's path, with `{id}` / `{code}` filled by real or generated segments. */
  path: string;
  auth: 'public' | 'origin' | 'session' | 'session+secret' | 'partner';
  body?: Record<string, unknown>;
  query?: string[];
}

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/v1/sessions', auth: 'origin', body: { widgetId: 'shop' } },
  { method: 'GET', path: '/v1/destinations', auth: 'session', query: ['locale', 'q'] },
  { method: 'GET', path: '/v1/destinations/{code}/plans', auth: 'session', query: ['locale'] },
  { method: 'POST', path: '/v1/quotes', auth: 'session', body: { offerId: 'off' } },
  {
    method: 'POST',
    path: '/v1/checkouts',
    auth: 'session',
    body: { quoteId: 'quo', locale: 'en', termsAccepted: true, email: 'a@b.example' },
  },
  { method: 'GET', path: '/v1/checkouts/{id}', auth: 'session+secret' },
  { method: 'GET', path: '/v1/checkouts/{id}/installation', auth: 'session+secret' },
  {
    method: 'POST',
    path: '/v1/checkouts/{id}/delivery-links',
    auth: 'session+secret',
    body: { maxViews: 1, expiresInMinutes: 60 },
  },
  { method: 'GET', path: '/v1/partner/checkouts/{id}', auth: 'partner' },
  {
    method: 'POST',
    path: '/v1/partner/checkouts/{id}/confirm',
    auth: 'partner',
    body: { paymentReference: 'pay_1' },
  },
  { method: 'POST', path: '/v1/partner/checkouts/{id}/cancel', auth: 'partner', body: {} },
  { method: 'GET', path: '/healthz', auth: 'public' },
  { method: 'GET', path: '/readyz', auth: 'public' },
  { method: 'GET', path: '/openapi.json', auth: 'public' },
  { method: 'GET', path: '/docs', auth: 'public' },
  { method: 'GET', path: '/widget.js', auth: 'public' },
];

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

  it('fuzzes every route of the route table', () => {
    const fuzzed = new Set(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`));
    expect(
      ROUTES.map((route) => `${route.method} ${route.path}`).filter((route) => !fuzzed.has(route)),
    ).toEqual([]);
  });

  it.each(ENDPOINTS)('$method $path', async (endpoint) => {
    const route = ROUTES.find(
      (candidate) => candidate.method === endpoint.method && candidate.path === endpoint.path,
    );
    const tally = { runs: 0, statuses: new Map<number, number>() };
    cases.set(`${endpoint.method} ${endpoint.path}`, tally);
    await fc.assert(
      fc.asyncProperty(requestFor(endpoint), async (request) => {
        const real = endpoint.path.includes('{code}')
          ? 'DE'
          : (endpoint.path.includes('partner') ? waiting : ready).id;
        const segment = request.segment === 'real' ? real : request.segment;
        const path = endpoint.path.replace(/\{(?:id|code)\}/, segment);
        const target = request.query === '' ? path : `${path}?${request.query}`;
        const headers: Array<[string, string]> = [];
        const add = (name: string, value: string | undefined) => {
          if (value !== undefined) headers.push([name, value]);
        };
        add('Content-Type', request.contentType);
        if (endpoint.auth !== 'public' && endpoint.auth !== 'partner') add('Origin', request.origin);
        if (endpoint.auth.startsWith('session')) add('Authorization', request.authorization);
        if (endpoint.auth === 'session+secret') add(CHECKOUT_SECRET_HEADER, request.checkoutSecret);
        if (endpoint.auth === 'partner') add(PARTNER_SECRET_HEADER, request.partnerSecret);
        if (endpoint.method === 'POST') add('Idempotency-Key', request.idempotencyKey);
        if (request.extraHeader !== undefined) add(...request.extraHeader);
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
