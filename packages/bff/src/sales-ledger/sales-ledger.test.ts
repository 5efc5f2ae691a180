/**
 * The partner's sales ledger against the real sandbox over HTTP, on the embedded (SQLite), Redis and memory
 * stores: a sale outlives its checkout (its 30 days run out on the BFF's test clock, or — on Redis, whose own
 * clock a test cannot move — its key goes as its expiry takes it, while the sale's key lives 400 days) and is
 * still found by checkout id, eSIM and payment reference and listed in the CSV export of its month; its stored
 * bytes hold nothing personal; another partner reads none of it; bad dates are a 400; past its retention it is
 * gone; a checkout a release before the ledger stored becomes a sale at start; a refund reaches the sale,
 * also one completed after its checkout has gone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PARTNER_SECRET_HEADER,
  type PartnerSale,
  PartnerSaleListResponseSchema,
  PartnerSaleResponseSchema,
  SALE_CSV_COLUMNS,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoughtEsim, buyEsim } from '../../testing/after-sale-flow';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  type TestClock,
  testClock,
  testConfig,
} from '../../testing/stack';
import { checkoutAsTraveller } from '../../testing/traveller-checkout';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import { STORE_KEYS, type Store } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const OTHER_SECRET = `other-partner-${randomBytes(24).toString('hex')}`;
const EMAIL = 'ledger.traveller@example.com';

/** The test config with another partner's widget beside ours. */
const ledgerConfig = (url: string) => {
  const base = testConfig(url);
  const shopPay = base.widgets.find((widget) => widget.id === 'shop-pay');
  if (shopPay === undefined) throw new Error('the test config has no shop-pay widget');
  return {
    ...base,
    widgets: [...base.widgets, { ...shopPay, id: 'other-pay', partnerSecretEnv: 'OTHER_PARTNER_SECRET' }],
  };
};

/** A store of one kind, and how a test lets a checkout's 30 days pass on it. */
interface StoreUnderTest {
  store: Store;
  /** The checkout's retention runs out (and its record is gone) while the sale's does not. */
  outliveCheckout(checkoutId: string): Promise<void>;
  /** Moves past the sale's own retention, or null where the store's clock cannot be moved (Redis). */
  outliveSale: (() => Promise<void>) | null;
  /** Milliseconds the key has to live, where the store can say. */
  ttlOf?: (key: string) => Promise<number>;
  close(): Promise<void>;
}

/** `PTTL key` asked of a Redis server in its own protocol (the store's interface does not answer it). */
async function redisPttl(port: number, key: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.endsWith('\r\n')) {
        socket.end();
        resolve(Number(answer.slice(1, -2)));
      }
    });
    socket.on('error', reject);
    socket.write(`*2\r\n$4\r\nPTTL\r\n$${Buffer.byteLength(key)}\r\n${key}\r\n`);
  });
}

/** Delete `key` as its expiry would. */
async function expire(store: Store, key: string): Promise<void> {
  const found = await store.get(key);
  if (found !== null) expect(await store.compareAndDelete(key, found.version)).toBe(true);
}

let redis: RunningRedis | undefined;
const STORES: [string, (clock: TestClock) => Promise<StoreUnderTest>][] = [
  [
    'the embedded store',
    async (clock) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sales-ledger-'));
      const store = await openSqliteStore({ dataDir, now: clock.now });
      const pass = async (ms: number) => {
        clock.advance(ms);
        await store.sweep();
      };
      return {
        store,
        outliveCheckout: () => pass(31 * DAY_MS),
        outliveSale: () => pass(401 * DAY_MS),
        async close() {
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'Redis',
    async () => {
      redis ??= await startRedisServer();
      const port = redis.port;
      const keyPrefix = `ledger-${randomBytes(4).toString('hex')}:`;
      const store = createRedisStore({ url: redis.url, keyPrefix });
      return {
        store,
        outliveCheckout: (checkoutId) => expire(store, STORE_KEYS.checkout(checkoutId)),
        outliveSale: null,
        ttlOf: (key) => redisPttl(port, `${keyPrefix}${key}`),
        close: async () => undefined,
      };
    },
  ],
  [
    'the memory store',
    async (clock) => ({
      store: createMemoryStore({ now: clock.now }),
      outliveCheckout: async () => clock.advance(31 * DAY_MS),
      outliveSale: async () => clock.advance(401 * DAY_MS),
      close: async () => undefined,
    }),
  ],
];

afterAll(async () => {
  await redis?.stop();
});

const asPartner = (stack: Stack, secret = PARTNER_SECRET) => ({
  get: (path: string) => call(stack.server.url, path, { headers: { [PARTNER_SECRET_HEADER]: secret } }),
  post: (path: string, body: unknown = {}) =>
    call(stack.server.url, path, { method: 'POST', headers: { [PARTNER_SECRET_HEADER]: secret }, body }),
});

/** RFC 4180 read back: rows of fields (quoted fields with doubled quotes, CRLF between rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[at + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      at += 1;
    } else field += char;
  }
  expect(field, 'the last line ends with CRLF').toBe('');
  return rows;
}

/** The UTC month `iso` falls in, as the export's `from` and `to` (its first day, and the next month's). */
function monthOf(iso: string): { from: string; to: string } {
  const date = new Date(iso);
  const first = (year: number, month: number) =>
    new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  return {
    from: first(date.getUTCFullYear(), date.getUTCMonth()),
    to: first(date.getUTCFullYear(), date.getUTCMonth() + 1),
  };
}

describe.each(STORES)('the sales ledger on %s', (_name, open) => {
  let clock: TestClock;
  let underTest: StoreUnderTest;
  let stack: Stack;
  let checkoutId: string;
  let esimId: string;
  const paymentReference = `pay_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    clock = testClock();
    underTest = await open(clock);
    stack = await startStack({
      config: ledgerConfig,
      env: { OTHER_PARTNER_SECRET: OTHER_SECRET },
      store: underTest.store,
      bffOptions: { now: clock.now },
    });
    checkoutId = await checkoutAsTraveller(stack.server.url, 'shop-pay', { email: EMAIL });
    const partner = asPartner(stack);
    const confirmed = await partner.post(`/v1/partner/checkouts/${checkoutId}/confirm`, { paymentReference });
    expect(confirmed.status, confirmed.text).toBe(200);
    esimId = await eventually(async () => {
      const read = await partner.get(`/v1/partner/checkouts/${checkoutId}`);
      return read.body.data.status === 'ready' ? (read.body.data.esimId as string) : undefined;
    });
  });
  afterAll(async () => {
    // The stack closes its store.
    await stack?.close();
    await underTest?.close();
  });

  it('keeps the sale as it moved, with nothing personal in its stored bytes', async () => {
    const partner = asPartner(stack);
    const sale = await eventually(async () => {
      const read = await partner.get(`/v1/partner/sales/${checkoutId}`);
      return read.status === 200 && read.body.data.esimId !== null ? read : undefined;
    });
    const data = PartnerSaleResponseSchema.parse(sale.body).data;
    const checkout = (await partner.get(`/v1/partner/checkouts/${checkoutId}`)).body.data;
    expect(data).toMatchObject({
      checkoutId,
      widgetId: 'shop-pay',
      kind: 'issue',
      status: 'ready',
      amount: checkout.amount,
      paymentReference,
      orderId: checkout.order.id,
      esimId,
      createdAt: checkout.createdAt,
    });
    expect(data.wholesale?.amountMinor).toBeGreaterThan(0);
    expect(data.readyAt).not.toBeNull();
    expect(Date.parse(data.paidAt)).toBeGreaterThanOrEqual(Date.parse(data.createdAt));

    const installation = (await partner.get(`/v1/partner/checkouts/${checkoutId}/installation`)).body.data;
    const storedCheckout = JSON.parse(
      (await underTest.store.get(STORE_KEYS.checkout(checkoutId)))?.value ?? '',
    );
    const raw = (await underTest.store.get(STORE_KEYS.sale(checkoutId)))?.value ?? '';
    expect(raw).toContain(checkoutId);
    for (const personal of [EMAIL, '@', storedCheckout.sessionId, storedCheckout.origin, installation.lpa]) {
      expect(typeof personal).toBe('string');
      expect(raw).not.toContain(personal);
    }
    expect(Object.keys(JSON.parse(raw))).not.toEqual(
      expect.arrayContaining(['email', 'sessionId', 'openedFrom', 'origin']),
    );
    if (underTest.ttlOf !== undefined) {
      // A checkout is kept its 30 days after its last change, and at most a day more (its list entries' renewal).
      expect(await underTest.ttlOf(STORE_KEYS.checkout(checkoutId))).toBeLessThanOrEqual(31 * DAY_MS);
      expect(await underTest.ttlOf(STORE_KEYS.sale(checkoutId))).toBeGreaterThan(399 * DAY_MS);
    }
  });

  it('finds the sale by id, eSIM and payment reference, and exports it, after its checkout has gone', async () => {
    const partner = asPartner(stack);
    await underTest.outliveCheckout(checkoutId);
    const gone = await partner.get(`/v1/partner/checkouts/${checkoutId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('checkout_not_found');

    const byId = await partner.get(`/v1/partner/sales/${checkoutId}`);
    expect(byId.status, byId.text).toBe(200);
    const sale: PartnerSale = PartnerSaleResponseSchema.parse(byId.body).data;
    for (const query of [`esimId=${esimId}`, `paymentReference=${paymentReference}`]) {
      const found = await partner.get(`/v1/partner/sales?${query}`);
      expect(found.status, found.text).toBe(200);
      expect(PartnerSaleListResponseSchema.parse(found.body).data).toEqual([sale]);
    }
    const listed = PartnerSaleListResponseSchema.parse((await partner.get('/v1/partner/sales')).body).data;
    expect(listed.map((each) => each.checkoutId)).toContain(checkoutId);

    const month = monthOf(sale.paidAt);
    const csv = await partner.get(`/v1/partner/sales.csv?from=${month.from}&to=${month.to}`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([...SALE_CSV_COLUMNS]);
    const line = rows.find((row) => row[0] === checkoutId);
    expect(line).toBeDefined();
    const fields = Object.fromEntries(SALE_CSV_COLUMNS.map((column, at) => [column, line?.[at]]));
    expect(fields).toMatchObject({
      widget_id: 'shop-pay',
      status: 'ready',
      currency: sale.amount.currency,
      amount: (sale.amount.amountMinor / 100).toFixed(2),
      payment_reference: paymentReference,
      esim_id: esimId,
      order_id: sale.orderId,
      paid_at: sale.paidAt,
    });
    expect(csv.text).not.toContain(EMAIL);

    // The month after lists none of it.
    const next = monthOf(new Date(Date.parse(month.to) + DAY_MS).toISOString());
    const after = await partner.get(`/v1/partner/sales.csv?from=${next.from}&to=${next.to}`);
    expect(
      parseCsv(after.text)
        .slice(1)
        .map((row) => row[0]),
    ).not.toContain(checkoutId);
  });

  it('shows another partner none of it', async () => {
    const other = asPartner(stack, OTHER_SECRET);
    const read = await other.get(`/v1/partner/sales/${checkoutId}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('checkout_not_found');
    for (const query of ['', `?esimId=${esimId}`, `?paymentReference=${paymentReference}`]) {
      const listed = await other.get(`/v1/partner/sales${query}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data).toEqual([]);
    }
    const csv = await other.get('/v1/partner/sales.csv?from=2000-01-01&to=2100-01-01');
    expect(csv.status).toBe(200);
    expect(parseCsv(csv.text)).toEqual([[...SALE_CSV_COLUMNS]]);
    const named = await other.get('/v1/partner/sales?widgetId=shop-pay');
    expect(named.status).toBe(422);
    expect(named.body.error.params.field).toBe('widgetId');
  });

  it('answers bad dates with a 400 in the error envelope', async () => {
    const partner = asPartner(stack);
    for (const query of [
      'from=2026-13-01&to=2026-12-01',
      'from=yesterday&to=2026-12-01',
      'from=2026-10-01',
      'from=2026-11-01&to=2026-10-01',
      'from=2026-10-01&to=2026-10-01',
    ]) {
      const answer = await partner.get(`/v1/partner/sales.csv?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.meta.requestId).toMatch(/\S/);
    }
    const listed = await partner.get('/v1/partner/sales?from=2026-11-01T00:00:00&to=2026-12-01');
    expect(listed.status).toBe(400);
    expect(listed.body.error.params.field).toBe('from');
  });

  it('forgets the sale past its retention', async () => {
    if (underTest.outliveSale === null) return;
    await underTest.outliveSale();
    const partner = asPartner(stack);
    expect((await partner.get(`/v1/partner/sales/${checkoutId}`)).status).toBe(404);
    expect((await partner.get(`/v1/partner/sales?esimId=${esimId}`)).body.data).toEqual([]);
    expect((await partner.get('/v1/partner/sales')).body.data).toEqual([]);
  });
});

describe('a checkout stored by a release before the ledger', () => {
  it('is a sale once the BFF starts on it, without its traveller’s e-mail', async () => {
    const text = readFileSync(
      new URL('../store/record-fixtures/checkout.ready-installation-email-sent.json', import.meta.url),
      'utf8',
    );
    const record = JSON.parse(text) as {
      id: string;
      email: string;
      createdAt: string;
      order: { id: string };
    };
    const store = createMemoryStore();
    await store.insert(STORE_KEYS.checkout(record.id), text, DAY_MS);
    const stack = await startStack({ store });
    try {
      await stack.bff.indexesBuilt;
      const read = await asPartner(stack).get(`/v1/partner/sales/${record.id}`);
      expect(read.status, read.text).toBe(200);
      expect(PartnerSaleResponseSchema.parse(read.body).data).toMatchObject({
        checkoutId: record.id,
        widgetId: 'shop',
        status: 'ready',
        orderId: record.order.id,
        esimId: 'esim_xjt1zlx0kacmkd2xdxna',
        paymentReference: null,
        paidAt: record.createdAt,
      });
      expect((await store.get(STORE_KEYS.sale(record.id)))?.value).not.toContain(record.email);
    } finally {
      await stack.close();
    }
  });
});

describe('a refund of a sale', () => {
  let clock: TestClock;
  let stack: Stack;
  beforeAll(async () => {
    clock = testClock();
    stack = await startStack({
      store: createMemoryStore({ now: clock.now }),
      bffOptions: { now: clock.now },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** A direct sale's eSIM, refunded through a help request the sandbox's staff complete. */
  async function refund(bought: BoughtEsim, beforeCompleting: () => void = () => undefined) {
    const partner = asPartner(stack);
    const asked = await call(stack.server.url, `/v1/partner/esims/${bought.esimId}/action-requests`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
      body: { reasonCode: 'duplicate_charge' },
    });
    expect(asked.status, asked.text).toBe(201);
    beforeCompleting();
    await stack.sandbox.control.resolveActionRequest(asked.body.data.id, { outcome: 'completed' });
    // The partner's read of the request sees it completed, and has the refund followed.
    const read = await partner.get(`/v1/partner/action-requests/${asked.body.data.id}`);
    expect(read.body.data.status).toBe('completed');
  }

  it('reaches the sale while its checkout is kept, and after it has gone', async () => {
    const partner = asPartner(stack);
    const kept = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await refund(kept);
    const keptSale = PartnerSaleResponseSchema.parse(
      (await partner.get(`/v1/partner/sales/${kept.checkoutId}`)).body,
    ).data;
    expect(keptSale).toMatchObject({ status: 'refunded', orderStatus: 'refunded', esimId: kept.esimId });
    expect(keptSale.refundedAt).not.toBeNull();

    const gone = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await refund(gone, () => clock.advance(31 * DAY_MS));
    expect((await partner.get(`/v1/partner/checkouts/${gone.checkoutId}`)).status).toBe(404);
    const goneSale = PartnerSaleResponseSchema.parse(
      (await partner.get(`/v1/partner/sales/${gone.checkoutId}`)).body,
    ).data;
    expect(goneSale).toMatchObject({ status: 'refunded', orderStatus: 'refunded', esimId: gone.esimId });
    expect(Date.parse(goneSale.refundedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(goneSale.readyAt ?? ''));
  });
});
