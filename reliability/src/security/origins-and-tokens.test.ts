/**
 * The front door under attack: a table of hostile origins (look-alikes by suffix, prefix, IDN and punycode,
 * `null`, `*`, other schemes and ports, userinfo, trailing dots, upper case, lists, paths) is refused a session
 * and refused on widget routes with a genuine token; tokens tampered in header, payload or signature, re-signed
 * with another key, `alg: none`, expired by one second, or minted for another widget, origin or environment are
 * refused. Controls (the genuine origin and token) pass, so every refusal is about what was changed.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { ApiErrorEnvelopeSchema } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  deriveKey,
  openWidget,
  SHOP_ORIGIN,
  type Stack,
  startStack,
  testConfig,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { sendRaw } from '../harness/raw-http';

let stack: Stack;
const figures: Figure[] = [];

beforeAll(async () => {
  stack = await startStack({
    config: (url) => {
      const config = testConfig(url);
      const limits = { sessionsPerIpPerMinute: 10_000, requestsPerSessionPerMinute: 100_000 };
      return { ...config, widgets: config.widgets.map((widget) => ({ ...widget, limits })) };
    },
  });
});
afterAll(async () => {
  recordFigures('origins and tokens', figures);
  await stack?.close();
});

/** UTF-8 bytes written as latin1, so that a raw IDN host reaches the server as a browser never sends it. */
const utf8 = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

/** Origins a page of another site (or a script) could send; widget `shop` allows shop.example and *.shop.example. */
const HOSTILE_ORIGINS: Array<[string, string | undefined]> = [
  ['missing', undefined],
  ['null', 'null'],
  ['empty', ''],
  ['wildcard', '*'],
  ['suffix look-alike', 'https://shop.example.evil.io'],
  ['suffix look-alike of a subdomain', 'https://eu.shop.example.evil.io'],
  ['prefix look-alike', 'https://evilshop.example'],
  ['hyphen look-alike', 'https://evil-shop.example'],
  ['dot replaced by hyphen', 'https://shop-example.com'],
  ['truncated', 'https://shop.exampl'],
  ['IDN look-alike (Cyrillic е)', utf8('https://shop.examplе')],
  ['IDN look-alike (Cyrillic ѕһор)', utf8('https://ѕһор.example')],
  ['punycode look-alike', 'https://xn--shp-1na.example'],
  ['punycode subdomain look-alike', 'https://xn--e-ufa.shop.example.evil.io'],
  ['other scheme (http)', 'http://shop.example'],
  ['other scheme (ws)', 'ws://shop.example'],
  ['other scheme (chrome-extension)', 'chrome-extension://shop.example'],
  ['file scheme', 'file://'],
  ['other port', 'https://shop.example:8443'],
  ['explicit default port', 'https://shop.example:443'],
  ['port zero', 'https://shop.example:0'],
  ['subdomain on another port', 'https://eu.shop.example:8443'],
  ['subdomain on another scheme', 'http://eu.shop.example'],
  ['userinfo', 'https://user@shop.example'],
  ['userinfo with password', 'https://user:pass@shop.example'],
  ['host in userinfo', 'https://shop.example@evil.io'],
  ['backslash trick', 'https://shop.example\\@evil.io'],
  ['trailing dot', 'https://shop.example.'],
  ['leading dot', 'https://.shop.example'],
  ['empty label', 'https://a..shop.example'],
  ['upper-case host', 'https://SHOP.EXAMPLE'],
  ['upper-case scheme', 'HTTPS://shop.example'],
  ['a path', 'https://shop.example/'],
  ['a longer path', 'https://shop.example/checkout'],
  ['a query', 'https://shop.example?x=1'],
  ['a fragment', 'https://shop.example#x'],
  ['a list', 'https://shop.example, https://evil.io'],
  ['two origins', 'https://evil.io https://shop.example'],
  ['encoded dot', 'https://shop%2eexample'],
  ['literal wildcard pattern', 'https://*.shop.example'],
  ['the bare parent of a pattern', 'https://example'],
  ['an IP address', 'https://127.0.0.1'],
  ['an IPv6 address', 'https://[::1]'],
  ['port suffix trick', 'https://shop.example:443.evil.io'],
  ['another widget’s origin', 'https://rub.example'],
  ['very long', `https://${'a'.repeat(600)}.shop.example`],
];

/** Origins another widget of this BFF allows: CORS may let them read a refusal (it says nothing). */
const OTHER_WIDGET_ORIGINS = new Set(['https://rub.example']);

describe('hostile origins', () => {
  it('lets the genuine origins in (the control)', async () => {
    for (const origin of [SHOP_ORIGIN, 'https://eu.shop.example']) {
      const answer = await call(stack.server.url, '/v1/sessions', {
        method: 'POST',
        headers: { Origin: origin },
        body: { widgetId: 'shop' },
      });
      expect(answer.status).toBe(201);
    }
  });

  it(`refuses a session to each of ${HOSTILE_ORIGINS.length} hostile origins`, async () => {
    expect(HOSTILE_ORIGINS.length).toBeGreaterThanOrEqual(30);
    const accepted: string[] = [];
    for (const [name, origin] of HOSTILE_ORIGINS) {
      const answer = await sendRaw(stack.server.port, {
        method: 'POST',
        target: '/v1/sessions',
        headers: [
          ['Content-Type', 'application/json'],
          ...(origin === undefined ? [] : [['Origin', origin] as const]),
        ],
        body: Buffer.from(JSON.stringify({ widgetId: 'shop' })),
      });
      if (
        answer.status !== 403 ||
        (answer.json as { error?: { code?: string } })?.error?.code !== 'widget_origin_forbidden'
      )
        accepted.push(`${name}: ${answer.status}`);
      // Whatever else it may read, never a CORS grant for anything but the exact origin sent.
      const granted = answer.headers['access-control-allow-origin'];
      if (granted !== undefined && granted !== origin) accepted.push(`${name}: CORS granted to ${granted}`);
    }
    expect(accepted).toEqual([]);
    figures.push([
      'hostile origins refused a session',
      `${HOSTILE_ORIGINS.length}/${HOSTILE_ORIGINS.length}`,
    ]);
  });

  it('refuses a genuine token presented from each hostile origin, with no CORS grant', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const letIn: string[] = [];
    for (const [name, origin] of HOSTILE_ORIGINS) {
      const answer = await sendRaw(stack.server.port, {
        method: 'GET',
        target: '/v1/destinations',
        headers: [
          ['Authorization', `Bearer ${page.token}`],
          ...(origin === undefined ? [] : [['Origin', origin] as const]),
        ],
      });
      if (answer.status !== 401) letIn.push(`${name}: ${answer.status}`);
      const granted = answer.headers['access-control-allow-origin'];
      if (granted !== undefined && !(granted === origin && OTHER_WIDGET_ORIGINS.has(granted)))
        letIn.push(`${name}: CORS granted to ${granted}`);
      ApiErrorEnvelopeSchema.parse(answer.json);
    }
    expect(letIn).toEqual([]);
    const control = await page.get('/v1/destinations');
    expect(control.status).toBe(200);
    figures.push([
      'hostile origins refused on widget routes (genuine token)',
      `${HOSTILE_ORIGINS.length}/${HOSTILE_ORIGINS.length}`,
    ]);
  });
});

describe('hostile origins in CORS preflights', () => {
  it('grants no preflight of a widget route to any hostile origin', async () => {
    const granted: string[] = [];
    for (const [name, origin] of HOSTILE_ORIGINS) {
      if (origin === undefined) continue;
      for (const path of ['/v1/checkouts', '/v1/quotes', '/v1/destinations']) {
        const answer = await sendRaw(stack.server.port, {
          method: 'OPTIONS',
          target: path,
          headers: [
            ['Origin', origin],
            ['Access-Control-Request-Method', 'POST'],
            ['Access-Control-Request-Headers', 'authorization, content-type, idempotency-key'],
          ],
        });
        const allow = answer.headers['access-control-allow-origin'];
        if (allow !== undefined && !(allow === origin && OTHER_WIDGET_ORIGINS.has(allow)))
          granted.push(`${name} ${path}: ${allow}`);
        if (answer.status >= 500) granted.push(`${name} ${path}: ${answer.status}`);
      }
    }
    expect(granted).toEqual([]);
    const control = await call(stack.server.url, '/v1/checkouts', {
      method: 'OPTIONS',
      headers: { Origin: SHOP_ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(control.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    figures.push([
      'hostile origins refused a CORS preflight (× 3 routes)',
      `${HOSTILE_ORIGINS.length - 1}/${HOSTILE_ORIGINS.length - 1}`,
    ]);
  });
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs256 = (input: string, key: Buffer) => createHmac('sha256', key).update(input).digest('base64url');
function sign(header: unknown, payload: unknown, key: Buffer): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${hs256(input, key)}`;
}

describe('tampered and foreign tokens', () => {
  it('refuses every forged token on every widget route, and accepts the genuine one', async () => {
    const page = await openWidget(stack.server.url, 'shop');
    const [header, payload, signature] = page.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    // Signed as the BFF signs: the session key derived from the root secret, named by its kid in the header.
    const { kid, key: secret } = deriveKey(stack.sessionSecret, 'session');
    const now = Math.floor(Date.now() / 1000);
    const HS = { alg: 'HS256', typ: 'JWT', kid };
    const flip = (value: string, at: number) =>
      `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
    const rub = await openWidget(stack.server.url, 'shop-rub', 'https://rub.example');
    const sub = await openWidget(stack.server.url, 'shop', 'https://eu.shop.example');
    const forged: Array<[string, string]> = [
      [
        'header: typ changed, signature kept',
        `${b64({ alg: 'HS256', typ: 'JOSE' })}.${payload}.${signature}`,
      ],
      [
        'header: kid added, signature kept',
        `${b64({ ...HS, kid: '../../dev/null' })}.${payload}.${signature}`,
      ],
      ['header: alg HS512, re-signed', sign({ alg: 'HS512', typ: 'JWT' }, claims, secret)],
      ['header: alg RS256', `${b64({ alg: 'RS256', typ: 'JWT' })}.${payload}.${signature}`],
      ['header: not JSON', `${Buffer.from('nope').toString('base64url')}.${payload}.${signature}`],
      ['alg none, empty signature', `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`],
      ['alg none, signature kept', `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`],
      ['alg None', `${b64({ alg: 'None', typ: 'JWT' })}.${payload}.`],
      ['alg NONE', `${b64({ alg: 'NONE' })}.${payload}.${signature}`],
      ['no header', `.${payload}.${signature}`],
      ['payload: widget changed', `${header}.${b64({ ...claims, wid: 'shop-pay' })}.${signature}`],
      ['payload: origin changed', `${header}.${b64({ ...claims, org: 'https://evil.io' })}.${signature}`],
      ['payload: expiry extended', `${header}.${b64({ ...claims, exp: now + 86_400 })}.${signature}`],
      ['payload: session id changed', `${header}.${b64({ ...claims, sid: 'A'.repeat(24) })}.${signature}`],
      ['payload: extra claim', `${header}.${b64({ ...claims, admin: true })}.${signature}`],
      ['signature: first character flipped', `${header}.${payload}.${flip(signature, 0)}`],
      ['signature: last character flipped', `${header}.${payload}.${flip(signature, signature.length - 1)}`],
      ['signature: truncated', `${header}.${payload}.${signature.slice(0, 20)}`],
      ['signature: empty', `${header}.${payload}.`],
      ['signature: another token’s', `${header}.${payload}.${rub.token.split('.')[2]}`],
      ['four parts', `${page.token}.x`],
      ['two parts', `${header}.${payload}`],
      ['re-signed with another key', sign(HS, claims, randomBytes(32))],
      ['re-signed with an empty key', sign(HS, claims, Buffer.alloc(0))],
      ['re-signed with the key as text', sign(HS, claims, Buffer.from(secret.toString('hex')))],
      ['re-signed with the root secret itself', sign(HS, claims, stack.sessionSecret)],
      [
        're-signed with the root secret, no kid',
        sign({ alg: 'HS256', typ: 'JWT' }, claims, stack.sessionSecret),
      ],
      [
        'another purpose’s key (client secrets)',
        sign(HS, claims, deriveKey(stack.sessionSecret, 'checkout-client-secret').key),
      ],
      [
        'kid of another purpose',
        sign({ ...HS, kid: deriveKey(stack.sessionSecret, 'checkout-client-secret').kid }, claims, secret),
      ],
      ['expired by one second', sign(HS, { ...claims, iat: now - 901, exp: now - 1 }, secret)],
      ['expires this second', sign(HS, { ...claims, iat: now - 900, exp: now }, secret)],
      ['issued in the future', sign(HS, { ...claims, iat: now + 3_600, exp: now + 3_900 }, secret)],
      ['lives longer than 15 minutes', sign(HS, { ...claims, iat: now, exp: now + 901 }, secret)],
      ['minted for an unknown widget', sign(HS, { ...claims, wid: 'nobody' }, secret)],
      ['minted for the live environment', sign(HS, { ...claims, env: 'live' }, secret)],
      ['minted for another origin (signed)', sign(HS, { ...claims, org: 'https://eu.shop.example' }, secret)],
      ['genuine token of another widget and origin', rub.token],
      ['genuine token of another origin of the same widget', sub.token],
      ['not base64url', `${header}.${payload}.${signature.replace(/.$/, '+')}`],
      ['oversized', `${header}.${b64({ ...claims, pad: 'x'.repeat(4_000) })}.${signature}`],
    ];
    const routes = ['/v1/destinations', '/v1/destinations/DE/plans'];
    const posts = ['/v1/quotes', '/v1/checkouts'];
    const letIn: string[] = [];
    for (const [name, token] of forged) {
      const headers = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${token}` };
      for (const path of routes) {
        const answer = await call(stack.server.url, path, { headers });
        if (answer.status !== 401 || answer.body?.error?.code !== 'widget_session_invalid')
          letIn.push(`${name} GET ${path}: ${answer.status}`);
      }
      for (const path of posts) {
        const answer = await call(stack.server.url, path, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': `forged-${randomBytes(6).toString('hex')}` },
          body: {},
        });
        if (answer.status !== 401) letIn.push(`${name} POST ${path}: ${answer.status}`);
      }
    }
    expect(letIn).toEqual([]);
    // Controls: the genuine token, and the same claims signed with the real key, pass.
    for (const token of [page.token, sign(HS, claims, secret)]) {
      const answer = await call(stack.server.url, '/v1/destinations', {
        headers: { Origin: SHOP_ORIGIN, Authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
    }
    figures.push(['forged tokens refused (× 4 routes each)', `${forged.length}/${forged.length}`]);
  });
});
