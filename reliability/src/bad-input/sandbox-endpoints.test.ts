/**
 * Property-based bad input at every sandbox endpoint (the contract's routes, the hosted delivery page, brand
 * assets and the control API) over real HTTP. Every answer is the contract's error envelope with a 4xx, or a
 * success; never a 5xx, a stack trace or a hang. Header values stay under Node's 16 KB limit here: the sandbox
 * stands in for the real upstream, whose answer to oversized headers the contract does not describe.
 */
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { ErrorEnvelopeSchema } from '@esim-embed/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Figure, recordFigures } from '../harness/figures';
import { sendRaw } from '../harness/raw-http';
import { verdict } from './answer-verdict';
import { contentType, headerValueOf, hostileBody, hostileQuery, pathSegment } from './hostile-input';

const RUNS_PER_ENDPOINT = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 40) / 2;
const API_KEY = SANDBOX_KEYS.globetrotter;
const CONTROL_SECRET = 'reliability-control-secret';
const headerValue = headerValueOf({ long: false });

let sandbox: RunningSandbox;
/** Real ids for the path parameters, so that some requests reach the handlers behind the lookups. */
const real: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      'X-Api-Key': API_KEY,
      'Content-Type': 'application/json',
      ...(method === 'POST' ? { 'Idempotency-Key': `rel-${Math.random()}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return ((await response.json()) as { data: Record<string, unknown> & Array<Record<string, unknown>> }).data;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 100,
    controlSecret: CONTROL_SECRET,
  });
  const products = await api('GET', '/catalog/products');
  real.product = String(products[0]?.id);
  const offers = await api('GET', `/catalog/offers?productId=${real.product}`);
  real.offer = String(offers[0]?.id);
  const quote = await api('POST', '/quotes', { offerId: real.offer });
  real.quote = String(quote.id);
  const order = await api('POST', '/orders', { quoteId: real.quote, externalRef: 'reliability-fuzz' });
  real.order = String(order.id);
  const placed = await api('GET', `/orders/${real.order}`);
  real.esim = String((placed.esim as { id?: string } | null)?.id ?? 'esim_none');
  const link = await api('POST', `/orders/${real.order}/delivery-links`, {});
  real.link = String(link.id);
  real.token = String(link.url).split('/').pop() ?? 'x';
  const recipient = await api('POST', '/recipients', {
    externalRef: 'reliability-fuzz',
    email: 'a@b.example',
  });
  real.recipient = String(recipient.id);
  real.file = 'globetrotter.png';
  real.key = API_KEY;
  real.account = 'acc_x';
  real.action = 'acr_x';
});
afterAll(async () => {
  await sandbox?.close();
});

/** One sandbox endpoint: `:param` names one of the real ids above. */
interface Endpoint {
  method: string;
  path: string;
  auth: 'key' | 'control' | 'public';
  body?: Record<string, unknown>;
  query?: string[];
}

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/healthz', auth: 'public' },
  { method: 'GET', path: '/assets/logos/:file', auth: 'public' },
  { method: 'GET', path: '/d/:token', auth: 'public' },
  { method: 'GET', path: '/capabilities', auth: 'key' },
  { method: 'GET', path: '/account', auth: 'key' },
  { method: 'GET', path: '/account/balance', auth: 'key' },
  {
    method: 'GET',
    path: '/catalog/products',
    auth: 'key',
    query: ['cursor', 'limit', 'updatedSince', 'country'],
  },
  { method: 'GET', path: '/catalog/products/:product', auth: 'key' },
  { method: 'GET', path: '/catalog/offers', auth: 'key', query: ['productId', 'cursor', 'limit'] },
  { method: 'GET', path: '/catalog/offers/:offer', auth: 'key' },
  { method: 'POST', path: '/quotes', auth: 'key', body: { offerId: 'off', esimId: 'esim' } },
  { method: 'GET', path: '/quotes/:quote', auth: 'key' },
  {
    method: 'POST',
    path: '/orders',
    auth: 'key',
    body: {
      quoteId: 'quo',
      externalRef: 'ref',
      deliveryMode: 'partner',
      recipient: { email: 'a@b.example' },
    },
  },
  { method: 'GET', path: '/orders/:order', auth: 'key' },
  { method: 'GET', path: '/orders', auth: 'key', query: ['externalRef', 'status', 'cursor', 'limit'] },
  {
    method: 'POST',
    path: '/orders/:order/delivery-links',
    auth: 'key',
    body: { maxViews: 1, expiresInMinutes: 60 },
  },
  { method: 'POST', path: '/delivery-links/:link/revoke', auth: 'key' },
  { method: 'GET', path: '/esims', auth: 'key', query: ['cursor', 'limit'] },
  { method: 'GET', path: '/esims/:esim', auth: 'key' },
  { method: 'GET', path: '/esims/:esim/actions', auth: 'key' },
  { method: 'GET', path: '/esims/:esim/top-up-offers', auth: 'key' },
  {
    method: 'POST',
    path: '/esims/:esim/action-requests',
    auth: 'key',
    body: { externalRef: 'ref', reasonCode: 'unused_profile', reasonDetail: 'x' },
  },
  { method: 'GET', path: '/action-requests/:action', auth: 'key' },
  { method: 'GET', path: '/action-requests', auth: 'key', query: ['cursor', 'limit'] },
  { method: 'GET', path: '/recipients', auth: 'key', query: ['cursor', 'limit', 'externalRef'] },
  {
    method: 'POST',
    path: '/recipients',
    auth: 'key',
    body: { externalRef: 'ref', name: 'n', email: 'a@b.example' },
  },
  { method: 'GET', path: '/recipients/:recipient', auth: 'key' },
  { method: 'PATCH', path: '/recipients/:recipient', auth: 'key', body: { name: 'n', archived: true } },
  { method: 'GET', path: '/__sandbox/state', auth: 'control' },
  { method: 'POST', path: '/__sandbox/reset', auth: 'control' },
  { method: 'POST', path: '/__sandbox/clock/advance', auth: 'control', body: { ms: 1 } },
  {
    method: 'POST',
    path: '/__sandbox/pricing/bump',
    auth: 'control',
    body: { environment: 'test', offerId: 'off' },
  },
  { method: 'POST', path: '/__sandbox/catalog/bump', auth: 'control', body: { environment: 'test' } },
  { method: 'POST', path: '/__sandbox/quotes/:quote/expire', auth: 'control' },
  {
    method: 'POST',
    path: '/__sandbox/accounts/:account',
    auth: 'control',
    body: { balanceMinor: 1, status: 'active' },
  },
  { method: 'POST', path: '/__sandbox/keys/:key/rate-limit', auth: 'control', body: { perMinute: 1000 } },
  {
    method: 'POST',
    path: '/__sandbox/scenarios',
    auth: 'control',
    body: { accountId: 'acc', scenario: 'normal', count: 1 },
  },
  { method: 'POST', path: '/__sandbox/esims/:esim', auth: 'control', body: { activate: true, usedMb: 1 } },
  {
    method: 'POST',
    path: '/__sandbox/action-requests/:action/resolve',
    auth: 'control',
    body: { outcome: 'rejected', resolution: { code: 'declined', note: 'n' } },
  },
  { method: 'GET', path: '/__sandbox/outbox', auth: 'control', query: ['environment', 'to', 'orderId'] },
  { method: 'PUT', path: '/__sandbox/faults', auth: 'control', body: { rules: [] } },
  { method: 'DELETE', path: '/__sandbox/faults', auth: 'control' },
];

const ODD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

const realOrHostile = (value: () => string) =>
  fc
    .oneof({ weight: 3, arbitrary: fc.constant('real') }, fc.constant('none'), headerValue)
    .map((choice) => (choice === 'real' ? value() : choice === 'none' ? undefined : choice));

function requestFor(endpoint: Endpoint) {
  return fc.record({
    method: fc.oneof({ weight: 5, arbitrary: fc.constant(endpoint.method) }, fc.constantFrom(...ODD_METHODS)),
    segment: fc.oneof({ weight: 2, arbitrary: fc.constant('real') }, pathSegment),
    query: endpoint.query === undefined ? fc.constant('') : hostileQuery(endpoint.query),
    contentType,
    apiKey: realOrHostile(() => API_KEY),
    control: realOrHostile(() => CONTROL_SECRET),
    idempotencyKey: realOrHostile(() => `rel-${Math.random().toString(36).slice(2)}`),
    body:
      endpoint.body === undefined
        ? fc.oneof(fc.constant(undefined), hostileBody({}, 65_536))
        : hostileBody(endpoint.body, 65_536),
  });
}

describe('bad input at every sandbox endpoint', () => {
  const cases = new Map<string, { runs: number; statuses: Map<number, number> }>();

  it.each(ENDPOINTS)('$method $path', async (endpoint) => {
    const tally = { runs: 0, statuses: new Map<number, number>() };
    cases.set(`${endpoint.method} ${endpoint.path}`, tally);
    await fc.assert(
      fc.asyncProperty(requestFor(endpoint), async (request) => {
        const path = endpoint.path.replace(/:([a-z]+)/, (_match, name: string) =>
          request.segment === 'real' ? (real[name] ?? 'x') : request.segment,
        );
        const target = request.query === '' ? path : `${path}?${request.query}`;
        const headers: Array<[string, string]> = [];
        const add = (name: string, value: string | undefined) => {
          if (value !== undefined) headers.push([name, value]);
        };
        add('Content-Type', request.contentType);
        if (endpoint.auth === 'key') add('X-Api-Key', request.apiKey);
        if (endpoint.auth === 'control') add('X-Sandbox-Control', request.control);
        if (request.method === 'POST') add('Idempotency-Key', request.idempotencyKey);
        const answer = await sendRaw(sandbox.port, {
          method: request.method,
          target,
          headers,
          body: request.body,
        });
        tally.runs += 1;
        tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
        const problem = verdict(answer, {
          envelope: ErrorEnvelopeSchema,
          method: request.method,
          htmlPage: endpoint.path.startsWith('/d/'),
        });
        expect(problem, `${request.method} ${target}`).toBeUndefined();
      }),
      { numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
    );
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
    recordFigures('bad input · sandbox', figures);
  });
});
