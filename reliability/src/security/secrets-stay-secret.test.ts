/**
 * Secrets that stay secret (issue 13), against BFF processes started as production starts them, on a real
 * redis-server: after purchases a scan of Redis finds no client secret and no delivery URL, and replayed creates
 * still answer them; installation data and delivery links stop once the eSIM is installed; a partner cannot
 * reach an eSIM another partner's widget sold on the same upstream key; rotating the root secret keeps what was
 * issued working as docs/deployment.md says (and dropping the old root ends it); a wildcard origin over a
 * public suffix or a short partner secret stops the start-up; `/readyz` tells the public its status only; an
 * upstream error's amounts never reach a browser. Each refusal has its control.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { BffConfigInput } from '@esim-embed/bff';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, MANAGE_TOKEN_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BffProcess,
  type BffProcessOptions,
  buildBffBundle,
  startBffProcess,
} from '../harness/bff-process';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningRedis,
  SHOP_ORIGIN,
  startRedisServer,
  startStack,
  startTestRelay,
  TEST_ENV,
  testConfig,
  type WidgetPage,
  withUpstream,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { findSecrets } from '../harness/secret-scan';

const OTHER_ORIGIN = 'https://other.example';
const OTHER_PARTNER_SECRET = `other-partner-${randomBytes(18).toString('hex')}`;
const OPERATIONS_TOKEN = `ops-${randomBytes(24).toString('base64url')}`;
const FIRST_ROOT = randomBytes(48).toString('base64url');
const SECOND_ROOT = randomBytes(48).toString('base64url');

let redis: RunningRedis;
let sandbox: RunningSandbox;
let bff: BffProcess;
const figures: Figure[] = [];

/** The test widgets plus `other`: another partner (its own secret) on the same upstream key as `shop`. */
function config(sandboxUrl: string): BffConfigInput {
  const base = testConfig(sandboxUrl);
  const limits = { sessionsPerIpPerMinute: 1_000, requestsPerSessionPerMinute: 10_000 };
  const shop = base.widgets[0] as (typeof base.widgets)[number];
  return {
    ...base,
    operationsTokenEnv: 'TEST_OPERATIONS_TOKEN',
    widgets: [
      ...base.widgets.map((widget) => ({ ...widget, limits })),
      {
        ...shop,
        id: 'other',
        allowedOrigins: [OTHER_ORIGIN],
        partnerSecretEnv: 'OTHER_PARTNER_SECRET',
        limits,
      },
    ],
  };
}

const ENV = {
  ...TEST_ENV,
  OTHER_PARTNER_SECRET,
  TEST_OPERATIONS_TOKEN: OPERATIONS_TOKEN,
  ESIM_BFF_SESSION_SECRET: FIRST_ROOT,
};

/** A BFF process as production runs it: the built bundle (it starts in a fraction of the sources' time). */
const startBuilt = (options: BffProcessOptions) => startBffProcess({ ...options, built: true });

beforeAll(async () => {
  buildBffBundle();
  redis = await startRedisServer();
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 200,
  });
  bff = await startBuilt({ config: config(sandbox.url), env: ENV, redisUrl: redis.url });
}, 60_000);
afterAll(async () => {
  recordFigures('secrets that stay secret', figures);
  await bff?.kill();
  await sandbox?.close();
  await redis?.stop();
});

/** Every value in Redis, and the time to live (ms) of each idempotency record by its scope. */
/** How long a widget's replay records may live: its session (15 minutes at most). */
const SESSION_MS = 900_000;

function scanRedis(): {
  keys: number;
  values: string[];
  ttlsMs: { session: number[]; partner: number[] };
  /** The values of session records kept past the session (a checkout's create, read back after it ended). */
  pastSession: string[];
} {
  const cli = (...args: string[]) =>
    execFileSync('redis-cli', ['-p', String(redis.port), '--raw', ...args], { encoding: 'utf8' });
  const keys = cli('--scan')
    .split('\n')
    .filter((key) => key !== '');
  const values: string[] = [];
  const ttlsMs = { session: [] as number[], partner: [] as number[] };
  const pastSession: string[] = [];
  for (const key of keys) {
    const type = cli('TYPE', key).trim();
    let value = '';
    if (type === 'hash') value = cli('HGETALL', key);
    else if (type === 'string') value = cli('GET', key);
    else if (type === 'list') value = cli('LRANGE', key, '0', '-1');
    else if (type === 'set') value = cli('SMEMBERS', key);
    else if (type === 'zset') value = cli('ZRANGE', key, '0', '-1');
    values.push(value, key);
    const scope = /idempotency:(session|partner):/.exec(key)?.[1] as 'session' | 'partner' | undefined;
    if (scope === undefined) continue;
    const ttl = Number(cli('PTTL', key).trim());
    ttlsMs[scope].push(ttl);
    if (scope === 'session' && ttl > SESSION_MS) pastSession.push(value);
  }
  return { keys: keys.length, values, ttlsMs, pastSession };
}

interface Purchase {
  page: WidgetPage;
  checkoutId: string;
  clientSecret: string;
  checkoutKey: string;
  checkoutBody: unknown;
}

/** A `direct` purchase on `widgetId`, read until ready. */
async function buy(widgetId: string, origin = SHOP_ORIGIN): Promise<Purchase> {
  const page = await openWidget(bff.url, widgetId, origin);
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  const quote = await page.post(
    '/v1/quotes',
    { offerId: plans.body.data[0].offerId },
    { 'Idempotency-Key': newKey() },
  );
  expect(quote.status).toBe(201);
  const checkoutKey = newKey();
  const checkoutBody = { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true };
  const created = await page.post('/v1/checkouts', checkoutBody, { 'Idempotency-Key': checkoutKey });
  expect(created.status).toBe(201);
  const { id: checkoutId, clientSecret } = created.body.data as { id: string; clientSecret: string };
  await eventually(async () => {
    const answer = await page.get(`/v1/checkouts/${checkoutId}`, { [CHECKOUT_SECRET_HEADER]: clientSecret });
    return answer.body.data.status === 'ready' ? true : undefined;
  });
  return { page, checkoutId, clientSecret, checkoutKey, checkoutBody };
}

let sold: Purchase;
let esimId = '';
/** The delivery links made in the first test: by the traveller's widget, and by the partner's server. */
const linkIds: string[] = [];
let manageToken = '';

describe('replay records hold no bearer secret', () => {
  it('answers replays with the client secret and the delivery URL, yet Redis holds neither', async () => {
    const book = new Map<string, string>();
    sold = await buy('shop');
    const { page, checkoutId, clientSecret } = sold;
    const secretHeader = { [CHECKOUT_SECRET_HEADER]: clientSecret };
    book.set(`client secret ${checkoutId}`, clientSecret);
    const installation = await page.get(`/v1/checkouts/${checkoutId}/installation`, secretHeader);
    expect(installation.status).toBe(200);
    const linkKey = newKey();
    const link = await page.post(
      `/v1/checkouts/${checkoutId}/delivery-links`,
      {},
      { ...secretHeader, 'Idempotency-Key': linkKey },
    );
    expect(link.status).toBe(201);
    book.set('delivery URL', link.body.data.url);
    linkIds.push(link.body.data.id);
    const manage = await page.post(`/v1/checkouts/${checkoutId}/manage-link`, {}, secretHeader);
    expect(manage.status).toBe(201);
    esimId = manage.body.data.esimId;
    manageToken = manage.body.data.manageToken;
    book.set('manage token', manageToken);

    // Replays answer what the first request answered, secrets included: recomputed, or asked again upstream.
    const replayed = await page.post('/v1/checkouts', sold.checkoutBody, {
      'Idempotency-Key': sold.checkoutKey,
    });
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.body.data.clientSecret).toBe(clientSecret);
    const linkAgain = await page.post(
      `/v1/checkouts/${checkoutId}/delivery-links`,
      {},
      { ...secretHeader, 'Idempotency-Key': linkKey },
    );
    expect(linkAgain.headers.get('Idempotent-Replayed')).toBe('true');
    expect(linkAgain.body.data).toEqual(link.body.data);

    // The partner's server asks a delivery link for the same eSIM, and replays its request.
    const partnerLink = () =>
      call(bff.url, `/v1/partner/esims/${esimId}/delivery-links`, {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': partnerLinkKey },
        body: { maxViews: 2 },
      });
    const partnerLinkKey = newKey();
    const partnerFirst = await partnerLink();
    expect(partnerFirst.status).toBe(201);
    book.set('partner delivery URL', partnerFirst.body.data.url);
    linkIds.push(partnerFirst.body.data.id);
    const partnerAgain = await partnerLink();
    expect(partnerAgain.headers.get('Idempotent-Replayed')).toBe('true');
    expect(partnerAgain.body.data.url).toBe(partnerFirst.body.data.url);

    // A partner_confirm purchase too, confirmed by the partner's server.
    const pay = await openWidget(bff.url, 'shop-pay');
    const destinations = await pay.get('/v1/destinations');
    const plans = await pay.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
    const quote = await pay.post(
      '/v1/quotes',
      { offerId: plans.body.data[0].offerId },
      { 'Idempotency-Key': newKey() },
    );
    const created = await pay.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    book.set(`client secret ${created.body.data.id}`, created.body.data.clientSecret);
    const confirmed = await call(bff.url, `/v1/partner/checkouts/${created.body.data.id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirmed.status).toBe(200);

    const scan = scanRedis();
    expect(scan.ttlsMs.session.length).toBeGreaterThanOrEqual(5);
    expect(findSecrets(scan.values, book)).toEqual([]);
    // Only the session could replay these answers: they live no longer than it (15 minutes at most) — but for a
    // checkout's create, which its ended session's token may still read back for idempotencyTtlHours (a page
    // reloaded late); those hold a checkout, and neither its client secret (checked above) nor the email.
    const longest = Math.max(...scan.ttlsMs.session);
    expect(longest).toBeLessThanOrEqual(SESSION_MS + 24 * 3_600_000);
    expect(Math.min(...scan.ttlsMs.session)).toBeGreaterThan(0);
    expect(scan.pastSession.length).toBeGreaterThan(0);
    for (const kept of scan.pastSession) {
      expect(kept).toMatch(/chk_/);
      expect(kept).not.toMatch(/"email"\s*:\s*"[^"]/);
    }
    expect(scan.ttlsMs.session.filter((ttl) => ttl <= SESSION_MS).length).toBeGreaterThan(0);
    // The partner's key (scoped to its secret) keeps its own time: the configured idempotencyTtlHours.
    expect(scan.ttlsMs.partner).toHaveLength(1);
    expect(scan.ttlsMs.partner[0]).toBeGreaterThan(23 * 3_600_000);
    // Control: the scan does see what it looks for (the checkout record names the checkout).
    expect(scan.values.some((value) => value.includes(checkoutId))).toBe(true);
    figures.push([
      'Redis scanned after 2 purchases, widget and partner delivery links, a manage link, 3 replays',
      `${scan.keys} keys: 0 client secrets, 0 delivery URLs, 0 manage tokens; replays answered them`,
    ]);
    figures.push(['longest replay record TTL (session-scoped)', `${Math.round(longest / 1000)} s (≤ 900 s)`]);
  }, 60_000);
});

describe('partners reach only what their own widgets sold', () => {
  it('refuses another partner on the same upstream key the eSIM, its manage link and the checkout', async () => {
    const asOther = { [PARTNER_SECRET_HEADER]: OTHER_PARTNER_SECRET };
    const asSeller = { [PARTNER_SECRET_HEADER]: PARTNER_SECRET };
    const attempts = [
      call(bff.url, `/v1/partner/esims/${esimId}`, { headers: asOther }),
      call(bff.url, `/v1/partner/esims/${esimId}/manage-links`, {
        method: 'POST',
        headers: asOther,
        body: { widgetId: 'other' },
      }),
      call(bff.url, `/v1/partner/esims/${esimId}/manage-links/revoke-all`, {
        method: 'POST',
        headers: asOther,
      }),
      call(bff.url, `/v1/partner/checkouts/${sold.checkoutId}`, { headers: asOther }),
      ...linkIds.map((id) =>
        call(bff.url, `/v1/partner/delivery-links/${id}/revoke`, { method: 'POST', headers: asOther }),
      ),
    ];
    const answers = await Promise.all(attempts);
    const statuses = answers.map((answer) => answer.status);
    expect(answers.map((answer) => answer.body.error?.code)).toEqual([
      'esim_not_found',
      'esim_not_found',
      'esim_not_found',
      'checkout_not_found',
      'delivery_link_invalid',
      'delivery_link_invalid',
    ]);
    // Control: the selling partner reads it, and its upstream account does know the eSIM.
    const seller = await call(bff.url, `/v1/partner/esims/${esimId}`, { headers: asSeller });
    expect(seller.status).toBe(200);
    expect(seller.body.data.esimId).toBe(esimId);
    const upstream = await fetch(`${sandbox.url}/esims/${esimId}`, {
      headers: { 'X-Api-Key': SANDBOX_KEYS.globetrotter },
    });
    expect(upstream.status).toBe(200);
    // The seller revokes its own links (both makers: its widget's traveller, its own server).
    for (const id of linkIds) {
      const revoked = await call(bff.url, `/v1/partner/delivery-links/${id}/revoke`, {
        method: 'POST',
        headers: asSeller,
      });
      expect(revoked.status).toBe(200);
    }
    figures.push([
      'another partner, same upstream key: eSIM view, manage link, revoke-all, checkout, revoke 2 delivery links',
      `${statuses.join(' ')} (seller: ${seller.status}, revokes 200)`,
    ]);
  });
});

describe('installation data only while the eSIM is not installed', () => {
  it('refuses installation data and delivery links once the profile is installed', async () => {
    const { page, checkoutId, clientSecret } = sold;
    const secretHeader = { [CHECKOUT_SECRET_HEADER]: clientSecret };
    await sandbox.control.setEsim(esimId, { install: true });
    const installation = await page.get(`/v1/checkouts/${checkoutId}/installation`, secretHeader);
    const link = await page.post(
      `/v1/checkouts/${checkoutId}/delivery-links`,
      {},
      { ...secretHeader, 'Idempotency-Key': newKey() },
    );
    const mine = await page.get('/v1/my-esim/installation', { [MANAGE_TOKEN_HEADER]: manageToken });
    const answers = [installation, link, mine].map(
      (answer) => `${answer.status} ${answer.body.error?.params?.reason}`,
    );
    expect(answers).toEqual(Array(3).fill('409 already_installed'));
    expect(installation.text).not.toMatch(/LPA:/);
    figures.push([
      'after install: checkout installation, delivery link, my-eSIM installation',
      answers.join(', '),
    ]);
  });
});

describe('rotating the root secret', () => {
  it('keeps the old client secret, session and manage link working while the old root is listed', async () => {
    const { page, checkoutId, clientSecret } = sold;
    await bff.kill();
    bff = await startBuilt({
      config: config(sandbox.url),
      env: { ...ENV, ESIM_BFF_SESSION_SECRET: SECOND_ROOT, ESIM_BFF_PREVIOUS_SESSION_SECRETS: FIRST_ROOT },
      redisUrl: redis.url,
    });
    const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}` };
    const oldSession = await call(bff.url, `/v1/checkouts/${checkoutId}`, {
      headers: { ...auth, [CHECKOUT_SECRET_HEADER]: clientSecret },
    });
    expect(oldSession.status).toBe(200);
    const fresh = await openWidget(bff.url, 'shop');
    const freshHeader = JSON.parse(Buffer.from(fresh.token.split('.')[0] as string, 'base64url').toString());
    const oldHeader = JSON.parse(Buffer.from(page.token.split('.')[0] as string, 'base64url').toString());
    expect(freshHeader.kid).not.toBe(oldHeader.kid);
    const oldSecret = await fresh.get(`/v1/checkouts/${checkoutId}`, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    expect(oldSecret.status).toBe(200);
    const myEsim = await fresh.get('/v1/my-esim', { [MANAGE_TOKEN_HEADER]: manageToken });
    expect(myEsim.status).toBe(200);
    expect(myEsim.body.data.esimId).toBe(esimId);
    // The install step asks again after the rotation: the same link comes back.
    const again = await fresh.post(
      `/v1/checkouts/${checkoutId}/manage-link`,
      {},
      { [CHECKOUT_SECRET_HEADER]: clientSecret },
    );
    expect(again.body.data?.manageToken).toBe(manageToken);
    figures.push([
      'root rotated (old root in ESIM_BFF_PREVIOUS_SESSION_SECRETS): old session, old client secret, old manage link',
      `${oldSession.status} ${oldSecret.status} ${myEsim.status}, same link re-issued`,
    ]);

    // Once the old root is dropped, sessions and client secrets it signed are refused.
    await bff.kill();
    bff = await startBuilt({
      config: config(sandbox.url),
      env: { ...ENV, ESIM_BFF_SESSION_SECRET: SECOND_ROOT },
      redisUrl: redis.url,
    });
    const dropped = await call(bff.url, `/v1/checkouts/${checkoutId}`, {
      headers: { ...auth, [CHECKOUT_SECRET_HEADER]: clientSecret },
    });
    expect(dropped.status).toBe(401);
    const droppedSecret = await (await openWidget(bff.url, 'shop')).get(`/v1/checkouts/${checkoutId}`, {
      [CHECKOUT_SECRET_HEADER]: clientSecret,
    });
    expect(droppedSecret.status).toBe(404);
    figures.push([
      'old root dropped: old session, old client secret',
      `${dropped.status} ${droppedSecret.status}`,
    ]);
  }, 90_000);
});

describe('start-up refusals', () => {
  it('stops on a wildcard origin over a public suffix, and on a short partner secret', async () => {
    const patterns = ['https://*.vercel.app', 'https://*.github.io', 'https://*.co.uk'];
    // The four start-ups side by side: each is its own process, refused on its own.
    const refusals = patterns.map(async (pattern) => {
      const base = config(sandbox.url);
      const widgets = base.widgets.map((widget, index) =>
        index === 0 ? { ...widget, allowedOrigins: [SHOP_ORIGIN, pattern] } : widget,
      );
      const started = startBuilt({ config: { ...base, widgets }, env: ENV });
      await expect(started).rejects.toThrow(/is a public suffix/);
      return pattern;
    });
    const shortSecret = expect(
      startBuilt({ config: config(sandbox.url), env: { ...ENV, TEST_PARTNER_SECRET: 'p'.repeat(31) } }),
    ).rejects.toThrow(/TEST_PARTNER_SECRET is shorter than 32 bytes/);
    const [refused] = await Promise.all([Promise.all(refusals), shortSecret]);
    expect(refused).toEqual(patterns);
    figures.push(['start-up refused', `${refused.join(', ')}; a 31-byte partner secret`]);
  }, 60_000);
});

describe('readiness', () => {
  it('tells the public its status only; the checks need the operations token', async () => {
    const open = await call(bff.url, '/readyz');
    expect(open.body).toEqual({ status: 'ready' });
    expect(open.text).not.toMatch(/shop|other/);
    const detailed = await call(bff.url, '/readyz', {
      headers: { Authorization: `Bearer ${OPERATIONS_TOKEN}` },
    });
    expect(detailed.body.checks).toMatchObject({ store: 'ok', 'widget:shop': 'ok', 'widget:other': 'ok' });
    figures.push([
      '/readyz without / with the operations token',
      `${Object.keys(open.body).join(',')} / ${Object.keys(detailed.body.checks).length} checks`,
    ]);
  });
});

describe('upstream error parameters', () => {
  it('pass an allowlist per code: no balance, limit or price reaches a browser', async () => {
    const relay = await startTestRelay(sandbox.url);
    const stack = await startStack({
      config: (url) => withUpstream(testConfig(url), { baseUrl: relay.url }),
    });
    try {
      const page = await openWidget(stack.server.url, 'shop');
      const destinations = await page.get('/v1/destinations');
      const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
      const offerId = plans.body.data[0].offerId;
      const refusals = [
        {
          code: 'insufficient_balance',
          params: { availableBalance: 987_654, required: { amountMinor: 555_111, currency: 'USD' } },
        },
        { code: 'order_limit_exceeded', params: { limit: 987_654, price: 555_111 } },
        { code: 'price_changed', params: { offerId, newPrice: 987_654, wholesale: 555_111 } },
      ];
      const seen: string[] = [];
      for (const error of refusals) {
        relay.hooks.respond = (request) =>
          request.method === 'POST' && request.path.startsWith('/quotes')
            ? { status: 422, body: { error, meta: { requestId: 'req_relay', apiVersion: '2.0.0' } } }
            : undefined;
        const answer = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
        expect(answer.body.error.code).toBe(error.code);
        expect(answer.text).not.toMatch(/987654|555111/);
        seen.push(`${error.code} ${JSON.stringify(answer.body.error.params)}`);
      }
      expect(seen[2]).toBe(`price_changed ${JSON.stringify({ offerId })}`);
      figures.push(['upstream refusals with amounts, as the browser sees them', seen.join('; ')]);
    } finally {
      relay.hooks = {};
      await stack.close();
      await relay.close();
    }
  });
});
