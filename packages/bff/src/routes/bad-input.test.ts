/**
 * Bad input on every endpoint answers the contract's error envelope with a 4xx — never a 500, a stack trace
 * or an empty body.
 */
import {
  API_ROUTES,
  ApiErrorEnvelopeSchema,
  CHECKOUT_SECRET_HEADER,
  PARTNER_SECRET_HEADER,
  type RouteSpec,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  newKey,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  type WidgetPage,
} from '../../testing/stack';

let stack: Stack;
let page: WidgetPage;
let checkout: { id: string; clientSecret: string };
beforeAll(async () => {
  stack = await startStack();
  page = await openWidget(stack.server.url, 'shop-pay');
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  const created = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
  checkout = created.body.data;
});
afterAll(async () => {
  await stack?.close();
});

type Request = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
};

function session(extra: Record<string, string> = {}): Record<string, string> {
  return { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}`, ...extra };
}
const json = { 'Content-Type': 'application/json' };
const key = () => ({ 'Idempotency-Key': newKey() });
const huge = JSON.stringify({ widgetId: 'x'.repeat(40_000) });

const CASES: Array<[string, () => Request, number, string]> = [
  [
    'sessions: malformed JSON',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { ...json, Origin: SHOP_ORIGIN },
      rawBody: '{"widgetId":',
    }),
    400,
    'validation_failed',
  ],
  [
    'sessions: text/plain',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { 'Content-Type': 'text/plain', Origin: SHOP_ORIGIN },
      rawBody: '{"widgetId":"shop"}',
    }),
    415,
    'unsupported_media_type',
  ],
  [
    'sessions: form-encoded',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: SHOP_ORIGIN },
      rawBody: 'widgetId=shop',
    }),
    415,
    'unsupported_media_type',
  ],
  [
    'sessions: body over the limit',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { ...json, Origin: SHOP_ORIGIN },
      rawBody: huge,
    }),
    413,
    'payload_too_large',
  ],
  [
    'sessions: an array',
    () => ({ method: 'POST', path: '/v1/sessions', headers: { Origin: SHOP_ORIGIN }, body: ['shop'] }),
    422,
    'validation_failed',
  ],
  [
    'sessions: wrong type',
    () => ({ method: 'POST', path: '/v1/sessions', headers: { Origin: SHOP_ORIGIN }, body: { widgetId: 7 } }),
    422,
    'validation_failed',
  ],
  [
    'sessions: unknown field',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { Origin: SHOP_ORIGIN },
      body: { widgetId: 'shop', admin: true },
    }),
    422,
    'validation_failed',
  ],
  [
    'sessions: empty body',
    () => ({ method: 'POST', path: '/v1/sessions', headers: { Origin: SHOP_ORIGIN } }),
    422,
    'validation_failed',
  ],
  [
    'sessions: deeply nested JSON',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { ...json, Origin: SHOP_ORIGIN },
      rawBody: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    }),
    422,
    'validation_failed',
  ],
  [
    'sessions: invalid UTF-8',
    () => ({
      method: 'POST',
      path: '/v1/sessions',
      headers: { ...json, Origin: SHOP_ORIGIN },
      rawBody: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1'),
    }),
    400,
    'validation_failed',
  ],
  [
    'destinations: no session',
    () => ({ path: '/v1/destinations', headers: { Origin: SHOP_ORIGIN } }),
    401,
    'widget_session_invalid',
  ],
  [
    'destinations: bad locale',
    () => ({ path: '/v1/destinations?locale=xx', headers: session() }),
    400,
    'validation_failed',
  ],
  [
    'destinations: unknown query',
    () => ({ path: '/v1/destinations?admin=1', headers: session() }),
    400,
    'validation_failed',
  ],
  [
    'plans: unknown destination',
    () => ({ path: '/v1/destinations/QQ/plans', headers: session() }),
    404,
    'destination_not_found',
  ],
  [
    'plans: not a code',
    () => ({ path: '/v1/destinations/%00%2F/plans', headers: session() }),
    404,
    'destination_not_found',
  ],
  [
    'quotes: no Idempotency-Key',
    () => ({ method: 'POST', path: '/v1/quotes', headers: session(), body: { offerId: 'x' } }),
    400,
    'validation_failed',
  ],
  [
    'quotes: key with spaces',
    () => ({
      method: 'POST',
      path: '/v1/quotes',
      headers: session({ 'Idempotency-Key': 'a b' }),
      body: { offerId: 'x' },
    }),
    400,
    'validation_failed',
  ],
  [
    'quotes: offerId too long',
    () => ({
      method: 'POST',
      path: '/v1/quotes',
      headers: session(key()),
      body: { offerId: 'o'.repeat(65) },
    }),
    422,
    'validation_failed',
  ],
  [
    'quotes: unknown offer',
    () => ({ method: 'POST', path: '/v1/quotes', headers: session(key()), body: { offerId: 'off_nope' } }),
    404,
    'offer_not_found',
  ],
  [
    'quotes: malformed JSON',
    () => ({ method: 'POST', path: '/v1/quotes', headers: session({ ...key(), ...json }), rawBody: '{' }),
    400,
    'validation_failed',
  ],
  [
    'checkouts: unknown quote',
    () => ({
      method: 'POST',
      path: '/v1/checkouts',
      headers: session(key()),
      body: { quoteId: 'quo_nope', locale: 'en', termsAccepted: true },
    }),
    404,
    'quote_not_found',
  ],
  [
    'checkouts: terms not accepted',
    () => ({
      method: 'POST',
      path: '/v1/checkouts',
      headers: session(key()),
      body: { quoteId: 'q', locale: 'en', termsAccepted: false },
    }),
    422,
    'validation_failed',
  ],
  [
    'checkouts: bad email',
    () => ({
      method: 'POST',
      path: '/v1/checkouts',
      headers: session(key()),
      body: { quoteId: 'q', locale: 'en', termsAccepted: true, email: 'nope' },
    }),
    422,
    'validation_failed',
  ],
  [
    'checkouts: bad locale',
    () => ({
      method: 'POST',
      path: '/v1/checkouts',
      headers: session(key()),
      body: { quoteId: 'q', locale: 'xx', termsAccepted: true },
    }),
    422,
    'validation_failed',
  ],
  [
    'checkout: not an id',
    () => ({ path: '/v1/checkouts/..%2F..%2Fetc', headers: session() }),
    404,
    'checkout_not_found',
  ],
  [
    'checkout: unknown id',
    () => ({
      path: '/v1/checkouts/chk_doesnotexist000',
      headers: session({ [CHECKOUT_SECRET_HEADER]: 'cs_x' }),
    }),
    404,
    'checkout_not_found',
  ],
  [
    'checkout: no client secret',
    () => ({ path: `/v1/checkouts/${checkout.id}`, headers: session() }),
    404,
    'checkout_not_found',
  ],
  [
    'checkout: wrong client secret',
    () => ({
      path: `/v1/checkouts/${checkout.id}`,
      headers: session({ [CHECKOUT_SECRET_HEADER]: `${checkout.clientSecret}x` }),
    }),
    404,
    'checkout_not_found',
  ],
  [
    'installation: wrong client secret',
    () => ({
      path: `/v1/checkouts/${checkout.id}/installation`,
      headers: session({ [CHECKOUT_SECRET_HEADER]: 'cs_wrong' }),
    }),
    404,
    'checkout_not_found',
  ],
  [
    'installation: not ready yet',
    () => ({
      path: `/v1/checkouts/${checkout.id}/installation`,
      headers: session({ [CHECKOUT_SECRET_HEADER]: checkout.clientSecret }),
    }),
    404,
    'esim_not_found',
  ],
  [
    'delivery link: maxViews out of range',
    () => ({
      method: 'POST',
      path: `/v1/checkouts/${checkout.id}/delivery-links`,
      headers: session({ ...key(), [CHECKOUT_SECRET_HEADER]: checkout.clientSecret }),
      body: { maxViews: 9 },
    }),
    422,
    'validation_failed',
  ],
  [
    'delivery link: not ready yet',
    () => ({
      method: 'POST',
      path: `/v1/checkouts/${checkout.id}/delivery-links`,
      headers: session({ ...key(), [CHECKOUT_SECRET_HEADER]: checkout.clientSecret }),
      body: {},
    }),
    404,
    'esim_not_found',
  ],
  ['partner: no secret', () => ({ path: `/v1/partner/checkouts/${checkout.id}` }), 401, 'unauthorized'],
  [
    'partner: wrong secret',
    () => ({
      method: 'POST',
      path: `/v1/partner/checkouts/${checkout.id}/confirm`,
      headers: { [PARTNER_SECRET_HEADER]: 'guess' },
    }),
    401,
    'unauthorized',
  ],
  [
    'partner: unknown checkout',
    () => ({
      path: '/v1/partner/checkouts/chk_doesnotexist000',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    }),
    404,
    'checkout_not_found',
  ],
  [
    'partner: bad confirm body',
    () => ({
      method: 'POST',
      path: `/v1/partner/checkouts/${checkout.id}/confirm`,
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: { paymentReference: 5 },
    }),
    422,
    'validation_failed',
  ],
  [
    'partner: cancel with a body',
    () => ({
      method: 'POST',
      path: `/v1/partner/checkouts/${checkout.id}/cancel`,
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: { reason: 'x' },
    }),
    422,
    'validation_failed',
  ],
  [
    'partner account: a widget id no widget can have',
    () => ({
      path: `/v1/partner/account?widgetId=${'w'.repeat(65)}`,
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    }),
    400,
    'validation_failed',
  ],
  [
    'partner account: a query parameter it does not read',
    () => ({
      path: '/v1/partner/account?widgetId=shop&widget=shop-pay',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    }),
    400,
    'validation_failed',
  ],
  [
    'HEAD without a session',
    () => ({ method: 'HEAD', path: '/v1/destinations', headers: { Origin: SHOP_ORIGIN } }),
    401,
    '',
  ],
  [
    'HEAD of a checkout without a session',
    () => ({ method: 'HEAD', path: `/v1/checkouts/${checkout.id}` }),
    401,
    '',
  ],
  [
    'HEAD of a partner checkout without the secret',
    () => ({ method: 'HEAD', path: `/v1/partner/checkouts/${checkout.id}` }),
    401,
    '',
  ],
  ['unknown route', () => ({ path: '/v1/nothing-here' }), 404, 'not_found'],
  ['unknown top-level route', () => ({ path: '/wp-admin.php' }), 404, 'not_found'],
  ['wrong method on sessions', () => ({ method: 'GET', path: '/v1/sessions' }), 405, 'method_not_allowed'],
  [
    'wrong method on a checkout',
    () => ({ method: 'DELETE', path: `/v1/checkouts/${checkout.id}`, headers: session() }),
    405,
    'method_not_allowed',
  ],
  [
    'wrong method on confirm',
    () => ({ method: 'PUT', path: `/v1/partner/checkouts/${checkout.id}/confirm` }),
    405,
    'method_not_allowed',
  ],
  ['wrong method on healthz', () => ({ method: 'POST', path: '/healthz' }), 405, 'method_not_allowed'],
];

describe('bad input', () => {
  it.each(CASES)('%s', async (_name, request, status, code) => {
    const { method, path, headers, body, rawBody } = request();
    const answer: Answer = await call(stack.server.url, path, { method, headers, body, rawBody });
    expect(answer.status).toBe(status);
    // A HEAD answer has no body to read: its status is the whole answer.
    if (method === 'HEAD') return;
    const envelope = ApiErrorEnvelopeSchema.parse(answer.body);
    expect(envelope.error.code).toBe(code);
    expect(envelope.meta.requestId).toBe(answer.headers.get('x-request-id'));
    expect(answer.text).not.toMatch(/at .+\.(ts|js):\d+/);
  });

  it('names the Allow methods on 405', async () => {
    const answer = await call(stack.server.url, '/v1/sessions', { method: 'PUT' });
    expect(answer.headers.get('allow')).toMatch(/POST/);
  });

  it('never logged a 500 during all of the above', () => {
    const failures = stack.logs.filter((line) => JSON.parse(line).status >= 500);
    expect(failures).toEqual([]);
  });
});

describe('every route with every method, without credentials', () => {
  it('never answers 5xx', async () => {
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    const failures: string[] = [];
    for (const route of API_ROUTES as readonly RouteSpec[]) {
      const path = route.path.replace('{id}', checkout.id).replace('{code}', 'DE');
      for (const method of methods) {
        const variants: Record<string, string>[] = [
          {},
          { Origin: SHOP_ORIGIN },
          { Origin: SHOP_ORIGIN, Authorization: 'Bearer x.y.z' },
        ];
        for (const headers of variants) {
          const answer = await call(stack.server.url, path, { method, headers });
          if (answer.status >= 500)
            failures.push(`${method} ${path} ${JSON.stringify(headers)} → ${answer.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
