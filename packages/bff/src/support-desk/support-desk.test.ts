/**
 * The partner's support desk against the real sandbox over HTTP: the checkouts of its own widgets listed newest
 * first and searched by status, creation time, e-mail (any case), eSIM and payment reference, with the order's
 * billing; the eSIMs it sold; a cursor that stays right while checkouts arrive, on the memory, embedded (SQLite)
 * and Redis stores; another partner sees none of it; a forged or foreign cursor is a 400.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PARTNER_SECRET_HEADER,
  type PartnerCheckout,
  PartnerCheckoutListResponseSchema,
  PartnerEsimListResponseSchema,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningRedis,
  type Stack,
  startRedisServer,
  startStack,
  testConfig,
  type WidgetPage,
} from '../../testing';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';

const OTHER_SECRET = `other-partner-${randomBytes(24).toString('hex')}`;

/** The test config, with another partner's widget and room for many unpaid checkouts from one address. */
const deskConfig = (url: string) => {
  const base = testConfig(url, {
    unpaidHolds: { perAddress: 1_000, perSession: 100, maxOpen: 1_000, sharePercent: 100 },
  });
  const found = base.widgets.find((widget) => widget.id === 'shop-pay');
  if (found === undefined) throw new Error('the test config has no shop-pay widget');
  // One page sells them all: a session may make many checkouts here.
  const shopPay = { ...found, limits: { checkoutsPerSession: 100, quotesPerSession: 1_000 } };
  return {
    ...base,
    widgets: [
      ...base.widgets.filter((widget) => widget.id !== 'shop-pay'),
      shopPay,
      { ...shopPay, id: 'other-pay', partnerSecretEnv: 'OTHER_PARTNER_SECRET' },
    ],
  };
};

/** Checkouts of one widget, made as its page makes them (one session, a quote each). */
async function sellerOf(stack: Stack, widgetId: string) {
  const page: WidgetPage = await openWidget(stack.server.url, widgetId);
  const destinations = await page.get('/v1/destinations?locale=en');
  const country = (destinations.body.data as { code: string; kind: string }[]).find(
    (destination) => destination.kind === 'country',
  );
  const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
  const offerId: string = plans.body.data[0].offerId;
  return async (email?: string): Promise<string> => {
    const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true, ...(email ? { email } : {}) },
      { 'Idempotency-Key': newKey() },
    );
    if (checkout.status !== 201) throw new Error(`checkout refused: ${checkout.text}`);
    return checkout.body.data.id;
  };
}

const asPartner = (stack: Stack, secret = PARTNER_SECRET) => ({
  get: (path: string) => call(stack.server.url, path, { headers: { [PARTNER_SECRET_HEADER]: secret } }),
  post: (path: string, body: unknown = {}) =>
    call(stack.server.url, path, { method: 'POST', headers: { [PARTNER_SECRET_HEADER]: secret }, body }),
});

/** The ids of a checkout list answer, checked against the shared schema. */
function idsOf(answer: Answer): string[] {
  expect(answer.status, answer.text).toBe(200);
  return PartnerCheckoutListResponseSchema.parse(answer.body).data.map((checkout) => checkout.id);
}

describe('the support desk', () => {
  let stack: Stack;
  let sell: (email?: string) => Promise<string>;
  const sold: Record<'ana' | 'bob' | 'cyd', string> = { ana: '', bob: '', cyd: '' };
  let bob: PartnerCheckout;
  let otherCheckout: string;

  beforeAll(async () => {
    stack = await startStack({ config: deskConfig, env: { OTHER_PARTNER_SECRET: OTHER_SECRET } });
    sell = await sellerOf(stack, 'shop-pay');
    otherCheckout = await (await sellerOf(stack, 'other-pay'))('ana@example.com');
    sold.ana = await sell('Ana@Example.com');
    sold.bob = await sell('bob@example.com');
    sold.cyd = await sell();
    const partner = asPartner(stack);
    expect(
      (await partner.post(`/v1/partner/checkouts/${sold.bob}/confirm`, { paymentReference: 'pay_bob' }))
        .status,
    ).toBe(200);
    expect((await partner.post(`/v1/partner/checkouts/${sold.cyd}/cancel`)).status).toBe(200);
    bob = await eventually(async () => {
      const read = await partner.get(`/v1/partner/checkouts/${sold.bob}`);
      return read.body.data.status === 'ready' ? (read.body.data as PartnerCheckout) : undefined;
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists its own checkouts newest first, as the partner reads them', async () => {
    const answer = await asPartner(stack).get('/v1/partner/checkouts');
    const page = PartnerCheckoutListResponseSchema.parse(answer.body);
    expect(page.data.map((checkout) => checkout.id)).toEqual([sold.cyd, sold.bob, sold.ana]);
    expect(page.nextCursor).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(page.data[1]).toMatchObject({ id: sold.bob, status: 'ready', paymentReference: 'pay_bob' });
  });

  it("carries the order's billing and state revision on the partner's checkout", () => {
    expect(bob.order).toMatchObject({
      billing: { status: expect.any(String), capturedAmount: expect.anything() },
      stateRevision: expect.any(Number),
    });
    expect(bob.order?.billing?.status).toBe('captured');
  });

  it('searches by status, e-mail (any case), eSIM, payment reference and creation time', async () => {
    const partner = asPartner(stack);
    expect(idsOf(await partner.get('/v1/partner/checkouts?status=cancelled'))).toEqual([sold.cyd]);
    expect(idsOf(await partner.get('/v1/partner/checkouts?status=awaiting_payment'))).toEqual([sold.ana]);
    expect(idsOf(await partner.get('/v1/partner/checkouts?status=ready'))).toEqual([sold.bob]);
    expect(idsOf(await partner.get('/v1/partner/checkouts?email=ANA%40example.COM'))).toEqual([sold.ana]);
    expect(idsOf(await partner.get('/v1/partner/checkouts?email=nobody%40example.com'))).toEqual([]);
    expect(idsOf(await partner.get(`/v1/partner/checkouts?esimId=${bob.esimId}`))).toEqual([sold.bob]);
    expect(idsOf(await partner.get('/v1/partner/checkouts?paymentReference=pay_bob'))).toEqual([sold.bob]);
    expect(
      idsOf(await partner.get('/v1/partner/checkouts?paymentReference=pay_bob&status=cancelled')),
    ).toEqual([]);
    const reads = await Promise.all(
      [sold.ana, sold.cyd].map(async (id) => (await partner.get(`/v1/partner/checkouts/${id}`)).body.data),
    );
    const [ana, cyd] = reads as PartnerCheckout[];
    const from = encodeURIComponent(bob.createdAt);
    expect(idsOf(await partner.get(`/v1/partner/checkouts?createdFrom=${from}`))).toEqual([
      sold.cyd,
      sold.bob,
    ]);
    const to = encodeURIComponent(ana?.createdAt ?? '');
    expect(idsOf(await partner.get(`/v1/partner/checkouts?createdTo=${to}`))).toEqual([sold.ana]);
    const window = `createdFrom=${from}&createdTo=${encodeURIComponent(cyd?.createdAt ?? '')}&status=ready`;
    expect(idsOf(await partner.get(`/v1/partner/checkouts?${window}`))).toEqual([sold.bob]);
  });

  it('lists the eSIMs its widgets sold, with the selling checkout', async () => {
    const answer = await asPartner(stack).get('/v1/partner/esims');
    expect(answer.status, answer.text).toBe(200);
    const page = PartnerEsimListResponseSchema.parse(answer.body);
    expect(page.data).toEqual([
      expect.objectContaining({
        esimId: bob.esimId,
        widgetId: 'shop-pay',
        checkoutId: sold.bob,
        soldAt: bob.createdAt,
        checkout: expect.objectContaining({ status: 'ready', email: 'bob@example.com' }),
      }),
    ]);
    expect((await asPartner(stack, OTHER_SECRET).get('/v1/partner/esims')).body.data).toEqual([]);
  });

  it("shows another partner none of them, and it none of the other's", async () => {
    const other = asPartner(stack, OTHER_SECRET);
    expect(idsOf(await other.get('/v1/partner/checkouts'))).toEqual([otherCheckout]);
    expect(idsOf(await other.get('/v1/partner/checkouts?email=ana%40example.com'))).toEqual([otherCheckout]);
    expect(idsOf(await other.get(`/v1/partner/checkouts?esimId=${bob.esimId}`))).toEqual([]);
    expect(idsOf(await asPartner(stack).get('/v1/partner/checkouts?email=ana%40example.com'))).toEqual([
      sold.ana,
    ]);
  });

  it('refuses a forged cursor, a cursor of another partner or search, and a bad query with 400', async () => {
    const partner = asPartner(stack);
    const first = await partner.get('/v1/partner/checkouts?limit=1');
    const cursor: string = first.body.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    expect(idsOf(await partner.get(`/v1/partner/checkouts?limit=1&cursor=${cursor}`))).toEqual([sold.bob]);
    const [payload = '', signature = ''] = cursor.split('.');
    const forgedPayload = Buffer.from(JSON.stringify([Date.now() + 1e9, 'chk_x'])).toString('base64url');
    const refused = [
      await partner.get(`/v1/partner/checkouts?cursor=${forgedPayload}.${signature}`),
      await partner.get(`/v1/partner/checkouts?cursor=${payload}.AAAAAAAAAAAAAAAAAAAAAA`),
      await partner.get('/v1/partner/checkouts?cursor=not-a-cursor'),
      await partner.get(`/v1/partner/checkouts?status=ready&cursor=${cursor}`),
      await asPartner(stack, OTHER_SECRET).get(`/v1/partner/checkouts?limit=1&cursor=${cursor}`),
      await partner.get(`/v1/partner/esims?cursor=${cursor}`),
    ];
    for (const answer of refused) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error).toEqual({
        code: 'validation_failed',
        params: expect.objectContaining({ field: 'cursor' }),
      });
    }
    for (const query of ['limit=101', 'limit=0', 'status=paid', 'createdFrom=yesterday', 'shop=1']) {
      const answer = await partner.get(`/v1/partner/checkouts?${query}`);
      expect(answer.status, `${query}: ${answer.text}`).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await call(stack.server.url, '/v1/partner/checkouts')).status).toBe(401);
  });
});

describe.each([
  ['memory', 60, () => createMemoryStore()],
  ['embedded (SQLite)', 24, (dir: string) => openSqliteStore({ dataDir: dir })],
  [
    'redis',
    24,
    (_dir: string, redis?: RunningRedis) =>
      createRedisStore({ url: redis?.url ?? '', keyPrefix: `desk-${Math.random()}:` }),
  ],
] as const)('paging on the %s store', (_name, count, makeStore) => {
  let stack: Stack;
  let redis: RunningRedis | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-desk-'));
  beforeAll(async () => {
    if (_name === 'redis') redis = await startRedisServer();
    const store: Store = makeStore(dataDir, redis);
    stack = await startStack({ config: deskConfig, env: { OTHER_PARTNER_SECRET: OTHER_SECRET }, store });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`pages through ${count} checkouts with a cursor while new ones arrive: none twice, none missed`, async () => {
    const sell = await sellerOf(stack, 'shop-pay');
    const made: string[] = [];
    for (let at = 0; at < count; at += 1) made.push(await sell());
    const partner = asPartner(stack);
    const seen: string[] = [];
    const arrived: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const answer = await partner.get(
        `/v1/partner/checkouts?limit=7${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      const parsed = PartnerCheckoutListResponseSchema.parse(answer.body);
      seen.push(...parsed.data.map((checkout) => checkout.id));
      // A sale between two pages: newer than every page read, so it shifts nothing.
      arrived.push(await sell());
      cursor = parsed.nextCursor;
      if (cursor === null) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...made].reverse());
    // The ones that arrived are on the first page of a new listing.
    expect(idsOf(await partner.get('/v1/partner/checkouts?limit=3'))).toEqual(arrived.slice(-3).reverse());
    expect(idsOf(await asPartner(stack, OTHER_SECRET).get('/v1/partner/checkouts'))).toEqual([]);
  });
});
