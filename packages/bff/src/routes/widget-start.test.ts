/**
 * The widget's start over HTTP against the real sandbox: an allowed page gets the widget's public config and
 * its catalog address with no token, cacheable 60 s per Origin; a foreign, missing or other widget's origin, an
 * unknown and a disabled widget get session creation's refusals; starts have their own per-address limit; the
 * config says how consent is taken and whether the device is checked. A start is kept per page origin and
 * answered before the app (the answer cache): each origin gets its own CORS header and every reader its own
 * request id, a forbidden origin is still refused, and kept starts count against the limit.
 */
import { ApiErrorEnvelopeSchema, WidgetStartResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/redis-server';
import {
  type Answer,
  call,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';

let stack: Stack;
/** A second page origin one widget allows. */
const OTHER_SHOP = 'https://other-shop.example';
/** The BFF's own origin: the widget `own` allows it (a page the BFF serves, like the demo). */
let ownOrigin = '';
beforeAll(async () => {
  const port = await freePort();
  ownOrigin = `http://127.0.0.1:${port}`;
  stack = await startStack({
    port,
    config: (url) => {
      const config = testConfig(url);
      const shop = config.widgets[0] as (typeof config.widgets)[number];
      return {
        ...config,
        widgets: [
          ...config.widgets,
          { ...shop, id: 'tight', limits: { sessionsPerIpPerMinute: 2 } },
          { ...shop, id: 'switched-off', enabled: false },
          { ...shop, id: 'own', allowedOrigins: [ownOrigin] },
          { ...shop, id: 'one-tap', consent: 'button' as const, deviceCheck: false },
          { ...shop, id: 'two-shops', allowedOrigins: [SHOP_ORIGIN, OTHER_SHOP] },
          { ...shop, id: 'tight-kept', limits: { sessionsPerIpPerMinute: 3 } },
        ],
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

const start = (widgetId: string, headers: Record<string, string> = { Origin: SHOP_ORIGIN }) =>
  call(stack.server.url, `/v1/widgets/${widgetId}/start`, { headers });

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(ApiErrorEnvelopeSchema.parse(answer.body).error.code).toBe(code);
  expect(answer.headers.get('cache-control')).toBe('no-store');
}

describe('GET /v1/widgets/{widgetId}/start', () => {
  it('answers an allowed page the public config and catalog address, no token, cacheable per Origin', async () => {
    const answer = await start('shop');
    expect(answer.status).toBe(200);
    const started = WidgetStartResponseSchema.parse(answer.body).data;
    const session = (await openWidget(stack.server.url, 'shop')).session;
    expect(started).toEqual({ widget: session.widget, catalog: session.catalog });
    expect(started.catalog.path).toMatch(/^\/v1\/catalog\/shop\/\d+-[0-9a-f]{16}$/);
    expect(answer.text).not.toContain('token');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(answer.headers.get('vary')).toBe('Origin, Sec-Fetch-Site');
    // The catalog it names answers without a session.
    expect((await call(stack.server.url, `${started.catalog.path}/en/destinations`)).status).toBe(200);

    const sub = await start('shop', { Origin: 'https://eu.shop.example' });
    expect(sub.status).toBe(200);
    expect(sub.headers.get('access-control-allow-origin')).toBe('https://eu.shop.example');
  });

  it('tells the widget how consent is taken and whether to check the device: checkbox and on by default', async () => {
    const byDefault = WidgetStartResponseSchema.parse((await start('shop')).body).data.widget;
    expect(byDefault).toMatchObject({ consent: 'checkbox', deviceCheck: true });
    const oneTap = WidgetStartResponseSchema.parse((await start('one-tap')).body).data.widget;
    expect(oneTap).toMatchObject({ consent: 'button', deviceCheck: false });
  });

  it('refuses a foreign, missing or other widget’s origin as session creation does; a foreign page reads why', async () => {
    const foreign = 'https://elsewhere.example';
    const refused = await start('shop', { Origin: foreign });
    expectError(refused, 403, 'widget_origin_forbidden');
    expect(refused.headers.get('access-control-allow-origin')).toBe(foreign);
    expect(refused.headers.get('vary')).toMatch(/Origin/);
    const session = await call(stack.server.url, '/v1/sessions', {
      method: 'POST',
      headers: { Origin: foreign },
      body: { widgetId: 'shop' },
    });
    expect(session.body.error).toEqual(refused.body.error);

    expectError(await start('shop', {}), 403, 'widget_origin_forbidden');
    expectError(await start('shop', { Origin: 'null' }), 403, 'widget_origin_forbidden');
    expectError(
      await start('shop', { Origin: 'https://shop.example.evil.io' }),
      403,
      'widget_origin_forbidden',
    );
    // Allowed for `shop`, not for `shop-pay`: the other widget's origin gets no CORS of this one's answers.
    expectError(
      await start('shop-pay', { Origin: 'https://eu.shop.example' }),
      403,
      'widget_origin_forbidden',
    );
  });

  it('answers unknown, malformed and disabled widgets with their codes', async () => {
    const unknown = await start('nobody');
    expectError(unknown, 404, 'storefront_app_not_found');
    expect(unknown.body.error.params).toEqual({ widgetId: 'nobody' });
    expectError(await start('Not%20A%20Widget'), 404, 'storefront_app_not_found');
    expectError(await start('switched-off'), 403, 'storefront_app_disabled');
  });

  it('answers a page of the BFF’s own origin, whose GET carries no Origin, only on Sec-Fetch-Site: same-origin', async () => {
    expect((await start('own', { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    expectError(await start('own', { 'Sec-Fetch-Site': 'cross-site' }), 403, 'widget_origin_forbidden');
    expectError(await start('own', {}), 403, 'widget_origin_forbidden');
    // Another widget does not allow the BFF's own origin.
    expectError(await start('shop', { 'Sec-Fetch-Site': 'same-origin' }), 403, 'widget_origin_forbidden');
  });

  it('limits starts per client IP apart from sessions', async () => {
    const statuses = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await start('tight')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number((await start('tight')).headers.get('retry-after'))).toBeGreaterThan(0);
    // Page views did not use up the sessions of those who go on to quote.
    await expect(openWidget(stack.server.url, 'tight')).resolves.toBeDefined();
  });

  it('keeps a start per page origin: each origin its own CORS header, each reader its own id, a stranger refused', async () => {
    const keptBefore = stack.bff.answers.size;
    const first = await start('two-shops', { Origin: SHOP_ORIGIN });
    expect(first.status).toBe(200);
    expect(stack.bff.answers.size).toBe(keptBefore + 1);
    const again = await start('two-shops', { Origin: SHOP_ORIGIN });
    const other = await start('two-shops', { Origin: OTHER_SHOP });
    const stranger = await start('two-shops', { Origin: 'https://evil.example' });
    const firstAgain = await start('two-shops', { Origin: SHOP_ORIGIN });
    expect(stack.bff.answers.size).toBe(keptBefore + 2);

    for (const answer of [again, firstAgain]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(answer.body.data).toEqual(first.body.data);
    }
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBe(OTHER_SHOP);
    expectError(stranger, 403, 'widget_origin_forbidden');
    const ids = [first, again, other, firstAgain].map((answer) => answer.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(4);
    for (const answer of [first, again, other, firstAgain]) {
      expect(answer.body.meta.requestId).toBe(answer.headers.get('x-request-id'));
    }
  });

  it('counts every start answered, kept or not, as a widget opened in the funnel', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const opened = async () =>
      (await stack.bff.funnel.read(['two-shops'], day, day))[0]?.steps.widgetOpened ?? 0;
    const before = await opened();
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push(await start('two-shops', { Origin: OTHER_SHOP }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await opened()).toBe(before + 3);
  });

  it('counts kept starts against the limit: past it the app refuses with Retry-After', async () => {
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await start('tight-kept')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(stack.bff.answers.size).toBeGreaterThan(0);
  });
});
