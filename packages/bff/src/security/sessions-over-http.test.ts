/**
 * Sessions over HTTP against the real sandbox: the origin table, widget lookup, tokens that are tampered
 * with, expired, foreign or `alg: none`, CORS, secure headers and the session rate limits.
 */
import { createHmac } from 'node:crypto';
import { ApiErrorEnvelopeSchema, SessionResponseSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/redis-server';
import {
  type Answer,
  call,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testClock,
  testConfig,
} from '../../testing/stack';
import { PROXY_SETTING_WARNING_MS } from './client-ip';
import { deriveKey } from './key-ring';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    config: (url) => {
      const config = testConfig(url);
      return {
        ...config,
        widgets: [
          ...config.widgets.map((widget) => ({ ...widget, limits: { sessionsPerIpPerMinute: 200 } })),
          {
            ...(config.widgets[0] as (typeof config.widgets)[number]),
            id: 'tight',
            limits: { sessionsPerIpPerMinute: 3 },
          },
          {
            ...(config.widgets[0] as (typeof config.widgets)[number]),
            id: 'chatty',
            limits: { requestsPerSessionPerMinute: 5 },
          },
          { ...(config.widgets[0] as (typeof config.widgets)[number]), id: 'switched-off', enabled: false },
        ],
      };
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

const createSession = (widgetId: string, headers: Record<string, string>) =>
  call(stack.server.url, '/v1/sessions', { method: 'POST', headers, body: { widgetId } });

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(ApiErrorEnvelopeSchema.parse(answer.body).error.code).toBe(code);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token signed as the BFF signs: with the session key derived from `root`, named in the header. */
function sign(header: object, payload: unknown, root: Buffer): string {
  const { kid, key } = deriveKey(root, 'session');
  const input = `${b64({ ...header, kid })}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

describe('POST /v1/sessions', () => {
  it('issues a token and the public config for an allowed origin, with CORS for exactly that origin', async () => {
    const answer = await createSession('shop', { Origin: SHOP_ORIGIN });
    expect(answer.status).toBe(201);
    const session = SessionResponseSchema.parse(answer.body).data;
    expect(session.widget).toMatchObject({ widgetId: 'shop', currency: 'USD', checkoutMode: 'direct' });
    expect(Date.parse(session.expiresAt) - Date.now()).toBeLessThanOrEqual(900_000);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(answer.headers.get('vary')).toMatch(/Origin/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    const sub = await createSession('shop', { Origin: 'https://eu.shop.example' });
    expect(sub.status).toBe(201);
  });

  it.each([
    ['missing', undefined, false],
    ['null', 'null', false],
    ['suffix trick', 'https://shop.example.evil.io', true],
    ['prefix look-alike', 'https://evilshop.example', true],
    ['pattern look-alike', 'https://evil-shop.example', true],
    ['other scheme', 'http://shop.example', true],
    ['other port', 'https://shop.example:8443', true],
    ['explicit default port', 'https://shop.example:443', false],
    ['upper case', 'https://SHOP.example', false],
    ['trailing dot', 'https://shop.example.', false],
    ['userinfo', 'https://user@shop.example', false],
    ['path', 'https://shop.example/', false],
    ['wildcard', '*', false],
    ['punycode look-alike', 'https://xn--shp-1na.example', true],
  ])('refuses a %s origin with widget_origin_forbidden', async (_name, origin, readable) => {
    const answer = await createSession('shop', origin === undefined ? {} : { Origin: origin });
    expectError(answer, 403, 'widget_origin_forbidden');
    // A well-formed foreign origin may read the refusal (to show why the store does not open), nothing more.
    expect(answer.headers.get('access-control-allow-origin')).toBe(readable ? (origin as string) : null);
  });

  it('lets a foreign page read a session refusal but nothing else', async () => {
    const foreign = 'https://elsewhere.example';
    const preflight = await call(stack.server.url, '/v1/sessions', {
      method: 'OPTIONS',
      headers: {
        Origin: foreign,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(foreign);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
    const otherPreflight = await call(stack.server.url, '/v1/destinations', {
      method: 'OPTIONS',
      headers: { Origin: foreign, 'Access-Control-Request-Method': 'GET' },
    });
    expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();
    const page = await openWidget(stack.server.url, 'shop');
    const data = await call(stack.server.url, '/v1/destinations', {
      headers: { Origin: foreign, Authorization: `Bearer ${page.token}` },
    });
    expect(data.status).toBe(401);
    expect(data.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses an origin allowed for another widget', async () => {
    expectError(
      await createSession('shop-pay', { Origin: 'https://eu.shop.example' }),
      403,
      'widget_origin_forbidden',
    );
  });

  it('answers unknown and disabled widgets with their codes', async () => {
    expectError(await createSession('nobody', { Origin: SHOP_ORIGIN }), 404, 'storefront_app_not_found');
    expectError(await createSession('switched-off', { Origin: SHOP_ORIGIN }), 403, 'storefront_app_disabled');
  });

  it('limits new sessions per client IP, and X-Forwarded-For does not reset it when no proxy is trusted', async () => {
    const answers: Answer[] = [];
    for (let index = 0; index < 5; index += 1) {
      answers.push(
        await createSession('tight', { Origin: SHOP_ORIGIN, 'X-Forwarded-For': `198.51.100.${index}` }),
      );
    }
    expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([201, 201, 201]);
    const limited = answers[3] as Answer;
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('session tokens on widget routes', () => {
  it('accepts the token from its own origin only', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    expect((await page.get('/v1/destinations')).status).toBe(200);
    const elsewhere = await call(stack.server.url, '/v1/destinations', {
      headers: { Origin: 'https://eu.shop.example', Authorization: `Bearer ${page.token}` },
    });
    expectError(elsewhere, 401, 'widget_session_invalid');
    const noOrigin = await call(stack.server.url, '/v1/destinations', {
      headers: { Authorization: `Bearer ${page.token}` },
    });
    expectError(noOrigin, 401, 'widget_session_invalid');
  });

  it('refuses missing, tampered, foreign, expired and alg-none tokens', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const [header, payload, signature] = page.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const tokens: Record<string, string | undefined> = {
      missing: undefined,
      garbage: 'garbage',
      'tampered payload': `${header}.${b64({ ...claims, wid: 'shop-pay' })}.${signature}`,
      'tampered signature': `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'alg none with signature': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`,
      'another key': sign({ alg: 'HS256', typ: 'JWT' }, claims, Buffer.alloc(32, 7)),
      'expired a second ago': sign(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now - 901, exp: now - 1 },
        stack.sessionSecret,
      ),
      'for another widget': sign(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, wid: 'nobody' },
        stack.sessionSecret,
      ),
      'for the live environment': sign(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, env: 'live' },
        stack.sessionSecret,
      ),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const headers: Record<string, string> = { Origin: SHOP_ORIGIN };
      if (token !== undefined) headers.Authorization = `Bearer ${token}`;
      const answer = await call(stack.server.url, '/v1/destinations', { headers });
      expect({ name, status: answer.status, code: answer.body?.error?.code }).toEqual({
        name,
        status: 401,
        code: 'widget_session_invalid',
      });
    }
    // The same forged claims signed with the real secret pass: the refusals above are about the token.
    const genuine = sign({ alg: 'HS256', typ: 'JWT' }, claims, stack.sessionSecret);
    const accepted = await call(stack.server.url, '/v1/destinations', {
      headers: { Origin: SHOP_ORIGIN, Authorization: `Bearer ${genuine}` },
    });
    expect(accepted.status).toBe(200);
  });

  it('limits requests per session', async () => {
    const page = await openWidget(stack.server.url, 'chatty');
    const statuses: number[] = [];
    for (let index = 0; index < 7; index += 1) statuses.push((await page.get('/v1/destinations')).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Another session of the same widget has its own budget.
    const other = await openWidget(stack.server.url, 'chatty');
    expect((await other.get('/v1/destinations')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin with exactly that origin', async () => {
    const answer = await call(stack.server.url, '/v1/checkouts', {
      method: 'OPTIONS',
      headers: {
        Origin: SHOP_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(answer.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
    expect(answer.headers.get('vary')).toMatch(/Origin/);
  });

  it('gives a preflight from another origin no CORS headers', async () => {
    const answer = await call(stack.server.url, '/v1/checkouts', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('never answers CORS on the partner API', async () => {
    const answer = await call(stack.server.url, '/v1/partner/checkouts/chk_aaaaaaaaaaaa', {
      headers: { Origin: SHOP_ORIGIN },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('pages served by the BFF itself', () => {
  it('accepts a same-origin GET without Origin only when the browser says Sec-Fetch-Site: same-origin', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const own = await startStack({
      port,
      config: (url) => {
        const config = testConfig(url);
        return {
          ...config,
          widgets: config.widgets.slice(0, 1).map((shop) => ({ ...shop, allowedOrigins: [origin] })),
        };
      },
    });
    try {
      const page = await openWidget(origin, 'shop', origin);
      const headers = { Authorization: `Bearer ${page.token}` };
      expect((await call(origin, '/v1/destinations', { headers })).status).toBe(401);
      const crossSite = await call(origin, '/v1/destinations', {
        headers: { ...headers, 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(crossSite.status).toBe(401);
      const sameOrigin = await call(origin, '/v1/destinations', {
        headers: { ...headers, 'Sec-Fetch-Site': 'same-origin' },
      });
      expect(sameOrigin.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('behind a trusted reverse proxy', () => {
  it('takes its own origin in the scheme the trusted proxy says the client used, and the header from no one else', async () => {
    // A BFF on `port` whose page is https://127.0.0.1:<port>, as a proxy that ends TLS there and forwards plain
    // HTTP serves it; a page of that origin starts the widget with a same-origin GET, which has no `Origin`.
    const startThrough = async (trustedProxyHops: number, forwardedProtos: string[]) => {
      const port = await freePort();
      const stack = await startStack({
        port,
        config: (url) => {
          const config = testConfig(url);
          return {
            ...config,
            trustedProxyHops,
            widgets: config.widgets
              .slice(0, 1)
              .map((shop) => ({ ...shop, allowedOrigins: [`https://127.0.0.1:${port}`] })),
          };
        },
      });
      try {
        const statuses = [];
        for (const forwardedProto of forwardedProtos) {
          const started = await call(stack.server.url, '/v1/widgets/shop/start', {
            headers: {
              'Sec-Fetch-Site': 'same-origin',
              'X-Forwarded-For': '203.0.113.7',
              'X-Forwarded-Proto': forwardedProto,
            },
          });
          statuses.push(started.status);
        }
        return statuses;
      } finally {
        await stack.close();
      }
    };
    expect(await startThrough(1, ['https', 'http', 'gopher'])).toEqual([200, 403, 403]);
    // No trusted proxy: whoever wrote the header is the client itself, and the request's own scheme counts.
    expect(await startThrough(0, ['https'])).toEqual([403]);
  });

  it('counts per client IP from X-Forwarded-For through the trusted hop only', async () => {
    const proxied = await startStack({
      config: (url) => {
        const config = testConfig(url);
        return {
          ...config,
          trustedProxyHops: 1,
          widgets: config.widgets.map((widget) => ({ ...widget, limits: { sessionsPerIpPerMinute: 2 } })),
        };
      },
    });
    try {
      const session = (forwardedFor: string) =>
        call(proxied.server.url, '/v1/sessions', {
          method: 'POST',
          headers: { Origin: SHOP_ORIGIN, 'X-Forwarded-For': forwardedFor },
          body: { widgetId: 'shop' },
        });
      // The client forges the leftmost entry each time; the proxy appended the real address last.
      const forged = [];
      for (let index = 0; index < 3; index += 1)
        forged.push((await session(`10.9.9.${index}, 203.0.113.7`)).status);
      expect(forged).toEqual([201, 201, 429]);
      // Another real client has its own budget.
      expect((await session('203.0.113.8')).status).toBe(201);
    } finally {
      await proxied.close();
    }
  });

  it('counts by the socket, and says the proxy setting is wrong, when fewer entries came than proxies are trusted', async () => {
    const clock = testClock();
    const proxied = await startStack({
      bffOptions: { now: clock.now },
      config: (url) => {
        const config = testConfig(url);
        return {
          ...config,
          trustedProxyHops: 2,
          widgets: config.widgets.map((widget) => ({ ...widget, limits: { sessionsPerIpPerMinute: 2 } })),
        };
      },
    });
    try {
      const session = (forwardedFor: string) =>
        call(proxied.server.url, '/v1/sessions', {
          method: 'POST',
          headers: { Origin: SHOP_ORIGIN, 'X-Forwarded-For': forwardedFor },
          body: { widgetId: 'shop' },
        });
      const warnings = () =>
        proxied.logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.level === 'warn' && String(line.message).includes('trustedProxyHops'));
      // Only one proxy stood in front: its one entry is whatever the client wrote, a new address each time.
      const statuses = [];
      for (let index = 0; index < 4; index += 1) statuses.push((await session(`10.9.9.${index}`)).status);
      expect(statuses).toEqual([201, 201, 429, 429]);
      expect(warnings()).toEqual([
        expect.objectContaining({ trustedProxyHops: 2, forwardedEntries: 1, requestsSinceLastWarning: 1 }),
      ]);
      // Once per period, however many requests: the next line tells how many came meanwhile.
      clock.advance(PROXY_SETTING_WARNING_MS);
      await session('10.9.9.9');
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]).toMatchObject({ requestsSinceLastWarning: 4 });
    } finally {
      await proxied.close();
    }
  });
});
