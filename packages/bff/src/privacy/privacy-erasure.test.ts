/**
 * Erasing and exporting one traveller's data from the partner's server, over HTTP against the real sandbox, on the
 * embedded store and on Redis: three purchases made with one address (one whose webhook delivery waits on the
 * queue, one with a kept idempotent answer — a resent delivery — and a help request naming the address); the
 * export answers them; the erasure leaves no byte of the address, nor its unkeyed SHA-256, in the store's files
 * (the database checkpointed) or in Redis (every key dumped and read), in `export-state`'s output or in the logs;
 * the sales still read without the person, a refund still works, the manage link says `erased`, the waiting
 * delivery goes without the address, and `privacy.erased` tells the partner. Before it, no delivery or kept answer
 * held the address. An erasure stopped after its first step finishes when the BFF starts again on the same store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  PARTNER_SECRET_HEADER,
  PartnerCheckoutResponseSchema,
  PrivacyErasureResponseSchema,
  PrivacyExportResponseSchema,
  WebhookEventSchema,
} from '@esim-embed/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myEsim, topUpablePlan, untilReady } from '../../testing/after-sale-flow';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  type TestClock,
  testClock,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import { postingWebhooksTo, startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { redisStateTransfer } from '../store/redis-state-transfer';
import { createRedisStore } from '../store/redis-store';
import { sqliteStateTransfer } from '../store/sqlite-state-transfer';
import { openSqliteStore, type SqliteStore } from '../store/sqlite-store';
import { decodeValue } from '../store/sqlite-value-encoding';
import type { Store } from '../store/store';

/** The traveller's address as they typed it (found again trimmed and in any case). */
const ADDRESS = 'Erase.Traveller+36@Example.org';
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

/** Every form of the address that must not remain: as typed, as searched, and their unkeyed SHA-256 digests. */
function traces(): string[] {
  const searched = ADDRESS.trim().toLowerCase();
  const sha = (text: string) => createHash('sha256').update(text).digest();
  return [
    ADDRESS,
    searched,
    ...[ADDRESS, searched].flatMap((text) => [sha(text).toString('hex'), sha(text).toString('base64url')]),
  ];
}

/** The traces of the address found in `bytes` (case-insensitive for the address itself). */
function tracesIn(bytes: Buffer | string): string[] {
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('latin1')).toLowerCase();
  return traces().filter((trace) => text.includes(trace.toLowerCase()));
}

/** A store under test, and how to look at everything it holds. */
interface StoreUnderTest {
  store: Store;
  /** Every byte the store holds at rest (the files, or every key dumped and read). */
  rawBytes(): Promise<Buffer>;
  /** The keys whose value holds the address (before the erasure: only checkouts may). */
  keysHolding(text: string): Promise<string[]>;
  /** `export-state`'s output. */
  exportState(): Promise<string>;
  /** Open the store again on the same data (a restart); the first must be closed. */
  reopen(clock: TestClock): Store;
  done(): Promise<void>;
}

async function stateLines(records: AsyncIterable<unknown>): Promise<string> {
  const lines: string[] = [];
  for await (const record of records) lines.push(JSON.stringify(record));
  return lines.join('\n');
}

function embedded(clock: TestClock): StoreUnderTest {
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-erasure-'));
  let store: SqliteStore = openSqliteStore({ dataDir, now: clock.now });
  return {
    get store() {
      return store;
    },
    // The files as they lie on the disk, and each value as it reads (most are kept deflated: in the files alone
    // an address would not show, erased or not).
    async rawBytes() {
      store.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const values = store.database.prepare('SELECT value FROM entries').all();
      return Buffer.concat([
        ...readdirSync(dataDir).map((name) => readFileSync(join(dataDir, name))),
        ...values.map((row) => Buffer.from(decodeValue(row.value))),
      ]);
    },
    // Each value as the store reads it: most are kept deflated, where the raw bytes would never show the text.
    async keysHolding(text) {
      const rows = store.database.prepare('SELECT key, value FROM entries').all();
      return rows
        .filter((row) => decodeValue(row.value).toLowerCase().includes(text.toLowerCase()))
        .map((row) => String(row.key));
    },
    exportState: () => stateLines(sqliteStateTransfer(store, clock.now).exportState()),
    reopen(next) {
      store = openSqliteStore({ dataDir, now: next.now });
      return store;
    },
    async done() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function redisBacked(): Promise<StoreUnderTest> {
  const redis: RunningRedis = await startRedisServer();
  const keyPrefix = `erasure-${randomBytes(4).toString('hex')}:`;
  const reader = new Redis(redis.url);
  const open = () => createRedisStore({ url: redis.url, keyPrefix });
  let store = open();
  async function allKeys(): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, page] = await reader.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      keys.push(...page);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }
  /** What a key holds, read by its type (a dump may be compressed), with its name. */
  async function contents(key: string): Promise<string> {
    const type = await reader.type(key);
    const parts: string[] = [key];
    if (type === 'string') parts.push((await reader.get(key)) ?? '');
    else if (type === 'zset') parts.push(...(await reader.zrange(key, '0', '-1', 'WITHSCORES')));
    else if (type === 'hash') parts.push(...Object.entries(await reader.hgetall(key)).flat());
    else if (type === 'list') parts.push(...(await reader.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(...(await reader.smembers(key)));
    return parts.join('\n');
  }
  return {
    get store() {
      return store;
    },
    async rawBytes() {
      const chunks: Buffer[] = [];
      for (const key of await allKeys()) {
        chunks.push(Buffer.from(await contents(key)));
        const dump = await reader.dumpBuffer(key);
        if (dump !== null) chunks.push(dump);
      }
      return Buffer.concat(chunks);
    },
    async keysHolding(text) {
      const found: string[] = [];
      for (const key of await allKeys()) {
        if ((await contents(key)).toLowerCase().includes(text.toLowerCase()))
          found.push(key.slice(keyPrefix.length));
      }
      return found;
    },
    async exportState() {
      const transfer = redisStateTransfer({ target: { kind: 'url', url: redis.url }, keyPrefix, store });
      try {
        return await stateLines(transfer.exportState());
      } finally {
        await transfer.close();
      }
    },
    reopen() {
      store = open();
      return store;
    },
    async done() {
      reader.disconnect();
      await redis.stop();
    },
  };
}

/** A `direct` purchase with the traveller's address, ready, with its manage link. */
async function buyWithAddress(page: WidgetPage) {
  const plan = await topUpablePlan(page);
  const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
  expect(quote.status, quote.text).toBe(201);
  const checkout = await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true, email: ADDRESS },
    { 'Idempotency-Key': newKey() },
  );
  expect(checkout.status, checkout.text).toBe(201);
  const { id, clientSecret } = checkout.body.data;
  await untilReady(page, id, clientSecret);
  const link = await page.post(
    `/v1/checkouts/${id}/manage-link`,
    {},
    { [CHECKOUT_SECRET_HEADER]: clientSecret },
  );
  expect(link.status, link.text).toBe(201);
  return {
    checkoutId: id as string,
    esimId: link.body.data.esimId as string,
    manageToken: link.body.data.manageToken as string,
  };
}

interface Running {
  sandbox: RunningSandbox;
  receiver: WebhookReceiver;
  clock: TestClock;
  bff: RunningBff;
  under: StoreUnderTest;
  partner(
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): ReturnType<typeof call>;
  close(): Promise<void>;
}

async function startOn(open: (clock: TestClock) => Promise<StoreUnderTest>): Promise<Running> {
  const clock = testClock();
  const sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 300,
  });
  const receiver = await startReceiver(0);
  const under = await open(clock);
  const sessionSecret = randomBytes(32);
  const bffOn = (store: Store, extra: Partial<Parameters<typeof startBff>[1]['bffOptions']> = {}) =>
    startBff(sandbox.url, {
      sessionSecret,
      store,
      config: (url) =>
        postingWebhooksTo(
          testConfig(url, { checkoutWatchSeconds: 1 }),
          receiver.url,
          (widget) => widget.id === 'shop',
        ),
      env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
      bffOptions: {
        now: clock.now,
        webhooks: { intervalMs: 25, now: clock.now },
        watchIntervalMs: 100,
        ...extra,
      },
    });
  const running: Running = {
    sandbox,
    receiver,
    clock,
    under,
    bff: await bffOn(under.store),
    partner: (path, init = {}) =>
      call(running.bff.server.url, path, {
        ...init,
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, ...init.headers },
      }),
    async close() {
      await running.bff.server.close();
      await running.bff.bff.close();
      await sandbox.close();
      await receiver.close();
      await under.done();
    },
  };
  return running;
}

/** The events the receiver took, parsed. */
const received = (receiver: WebhookReceiver) =>
  receiver.received
    .filter((request) => request.answered === 200)
    .map((request) => WebhookEventSchema.parse(JSON.parse(request.body)));

function erasureOn(name: string, open: (clock: TestClock) => Promise<StoreUnderTest>) {
  describe(`erasing one traveller (${name} store)`, () => {
    let running: Running;
    beforeAll(async () => {
      running = await startOn(open);
    });
    afterAll(async () => {
      await running?.close();
    });

    it('exports, then erases every trace of the address; the sales still read and refund', async () => {
      const { receiver, partner, under, clock } = running;
      const url = running.bff.server.url;
      // One: delivered, and one of its deliveries resent under a key (a kept answer).
      const one = await buyWithAddress(await openWidget(url, 'shop'));
      const delivered = await eventually(async () =>
        received(receiver).find(
          (event) => event.type === 'esim.ready' && event.data.checkout.id === one.checkoutId,
        ),
      );
      // Sent with the address, read from the checkout as it left.
      expect(delivered.type === 'esim.ready' && delivered.data.checkout.email).toBe(ADDRESS);
      const resendKey = newKey();
      const resent = await partner(`/v1/partner/webhook-deliveries/${delivered.id}/resend`, {
        method: 'POST',
        headers: { 'Idempotency-Key': resendKey },
        body: {},
      });
      expect(resent.status, resent.text).toBe(200);
      expect(resent.body.data.event.data.checkout.email).toBe(ADDRESS);
      // Two: its deliveries wait on the queue (the endpoint fails from now on).
      receiver.failFirst = Number.MAX_SAFE_INTEGER;
      const two = await buyWithAddress(await openWidget(url, 'shop'));
      await eventually(async () =>
        receiver.received.some((request) => request.answered === 500 && request.body.includes(two.checkoutId))
          ? true
          : undefined,
      );
      const three = await buyWithAddress(await openWidget(url, 'shop'));
      // Keep less: before any erasure, only the checkouts hold the address — no delivery, no kept answer.
      const holding = await under.keysHolding(ADDRESS.toLowerCase());
      expect(holding.filter((key) => !key.startsWith('checkout:'))).toEqual([]);
      expect(holding.filter((key) => key.startsWith('checkout:')).sort()).toEqual(
        [one, two, three].map((sale) => `checkout:${sale.checkoutId}`).sort(),
      );

      // A help request whose words name the address (the partner's own text, kept as it wrote it).
      const help = await partner(`/v1/partner/esims/${three.esimId}/action-requests`, {
        method: 'POST',
        headers: { 'Idempotency-Key': newKey() },
        body: { reasonCode: 'service_defective', reasonDetail: `No data, says ${ADDRESS}` },
      });
      expect(help.status, help.text).toBe(201);

      // The export answers every datum held: the checkouts with the address, their deliveries, the help request.
      const exported = await partner('/v1/partner/privacy/exports', {
        method: 'POST',
        body: { email: ADDRESS.toUpperCase() },
      });
      expect(exported.status, exported.text).toBe(200);
      const held = PrivacyExportResponseSchema.parse(exported.body).data;
      expect(held.checkouts.map((checkout) => checkout.id).sort()).toEqual(
        [one, two, three].map((sale) => sale.checkoutId).sort(),
      );
      expect(held.checkouts.every((checkout) => checkout.email === ADDRESS)).toBe(true);
      expect(held.esims.map((esim) => esim.id).sort()).toEqual(
        [one, two, three].map((sale) => sale.esimId).sort(),
      );
      expect(held.webhookDeliveries.length).toBeGreaterThanOrEqual(6);
      expect(held.actionRequests.map((request) => request.reason.detail)).toEqual([
        `No data, says ${ADDRESS}`,
      ]);

      // What the store holds is read whole: the address is there before the erasure.
      expect(tracesIn(await under.rawBytes())).toContain(ADDRESS.toLowerCase());

      // The erasure: queued, answered pending; the same request answers the same receipt.
      const key = newKey();
      const asked = await partner('/v1/partner/privacy/erasures', {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { email: ADDRESS },
      });
      expect(asked.status, asked.text).toBe(202);
      const receipt = PrivacyErasureResponseSchema.parse(asked.body).data;
      expect(receipt).toMatchObject({
        status: 'pending',
        subject: { kind: 'email', id: null },
        completedAt: null,
      });
      expect(asked.text.toLowerCase()).not.toContain(ADDRESS.toLowerCase());
      await running.bff.bff.privacyErasures.runDue();
      const done = await eventually(async () => {
        const read = await partner(`/v1/partner/privacy/erasures/${receipt.id}`);
        return read.body?.data?.status === 'completed'
          ? PrivacyErasureResponseSchema.parse(read.body).data
          : undefined;
      });
      expect(done.found).toMatchObject({ checkouts: 3, esims: 3, actionRequests: 1 });
      // The help request's words may have gone first: the watch, reading it meanwhile, keeps none of an erased eSIM's.
      expect(done.erased).toMatchObject({ checkouts: 3, esims: 3 });
      expect(Date.parse(done.completedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(done.requestedAt));
      const again = await partner('/v1/partner/privacy/erasures', {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { email: ADDRESS },
      });
      expect(again.body.data).toEqual(done);

      // No trace of the address anywhere the store keeps it, nor in what an export of the state writes, nor the logs.
      expect(tracesIn(await under.rawBytes())).toEqual([]);
      expect(tracesIn(await under.exportState())).toEqual([]);
      expect(tracesIn(running.bff.logs.join('\n'))).toEqual([]);

      // The sales read without the person: money facts kept.
      for (const sale of [one, two, three]) {
        const read = PartnerCheckoutResponseSchema.parse(
          (await partner(`/v1/partner/checkouts/${sale.checkoutId}`)).body,
        ).data;
        expect(read).toMatchObject({
          id: sale.checkoutId,
          status: 'ready',
          email: null,
          esimId: sale.esimId,
        });
        expect(read.amount.amountMinor).toBeGreaterThan(0);
      }
      // The address names nothing any more; a checkout exports without the person.
      const after = PrivacyExportResponseSchema.parse(
        (await partner('/v1/partner/privacy/exports', { method: 'POST', body: { email: ADDRESS } })).body,
      ).data;
      expect(after.checkouts).toEqual([]);
      const byCheckout = await partner('/v1/partner/privacy/exports', {
        method: 'POST',
        body: { checkoutId: one.checkoutId },
      });
      expect(tracesIn(byCheckout.text)).toEqual([]);
      expect(byCheckout.body.data.esims).toEqual([expect.objectContaining({ id: one.esimId, erased: true })]);
      // The kept answer, replayed, reads the checkout as it is now: without the address.
      const replay = await partner(`/v1/partner/webhook-deliveries/${delivered.id}/resend`, {
        method: 'POST',
        headers: { 'Idempotency-Key': resendKey },
        body: {},
      });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.event.data.checkout.email).toBeNull();

      // The manage link says what happened.
      const page = await openWidget(url, 'shop');
      const mine = await myEsim(page, one.manageToken);
      expect(mine.status).toBe(410);
      expect(mine.body.error.code).toBe('erased');

      // The waiting delivery goes without the address; the partner hears of the erasure.
      receiver.failFirst = 0;
      // A day on, for the BFF and the sandbox alike (a quote made later is fresh upstream too).
      clock.advance(24 * 60 * 60_000);
      await running.sandbox.control.advanceClock(24 * 60 * 60_000);
      const twoSent = await eventually(async () =>
        received(receiver).find(
          (event) => event.type === 'esim.ready' && event.data.checkout.id === two.checkoutId,
        ),
      );
      expect(twoSent.type === 'esim.ready' && twoSent.data.checkout.email).toBeNull();
      const erasedEvent = await eventually(async () =>
        received(receiver).find((event) => event.type === 'privacy.erased'),
      );
      expect(erasedEvent.type === 'privacy.erased' && erasedEvent.data.erasure.id).toBe(receipt.id);

      // A refund of an erased sale still works.
      const refund = await partner(`/v1/partner/esims/${two.esimId}/action-requests`, {
        method: 'POST',
        headers: { 'Idempotency-Key': newKey() },
        body: { reasonCode: 'duplicate_charge' },
      });
      expect(refund.status, refund.text).toBe(201);
      await running.sandbox.control.resolveActionRequest(refund.body.data.id, { outcome: 'completed' });
      await partner(`/v1/partner/action-requests/${refund.body.data.id}`);
      const refunded = PartnerCheckoutResponseSchema.parse(
        (await partner(`/v1/partner/checkouts/${two.checkoutId}`)).body,
      ).data;
      expect(refunded).toMatchObject({ status: 'cancelled', email: null, order: { status: 'refunded' } });
    });

    it('refuses a request naming none or two travellers, and another partner’s erasure', async () => {
      const { partner } = running;
      for (const body of [
        {},
        { email: ADDRESS, checkoutId: 'chk_abcdefgh12' },
        { email: 'not an address' },
      ]) {
        const answer = await partner('/v1/partner/privacy/erasures', {
          method: 'POST',
          headers: { 'Idempotency-Key': newKey() },
          body,
        });
        expect(answer.body?.error?.code, answer.text).toBe('validation_failed');
      }
      const unknown = await partner('/v1/partner/privacy/exports', {
        method: 'POST',
        body: { checkoutId: 'chk_unknown12345' },
      });
      expect(unknown.body.error.code).toBe('checkout_not_found');
      expect((await partner('/v1/partner/privacy/erasures/era_unknown123456')).status).toBe(404);
      const stranger = await call(running.bff.server.url, '/v1/partner/privacy/erasures/era_unknown123456');
      expect(stranger.status).toBe(401);
    });

    it('finishes an erasure stopped after its first step when the BFF starts again on the same store', async () => {
      const url = running.bff.server.url;
      const sale = await buyWithAddress(await openWidget(url, 'shop'));
      // The running BFF stops for good (as a killed process) right after the job recorded its first step.
      await running.bff.server.close();
      await running.bff.bff.close();
      const clock = running.clock;
      let stopped = false;
      const store = running.under.reopen(clock);
      const first = await startBff(running.sandbox.url, {
        sessionSecret: randomBytes(32),
        store,
        config: (sandboxUrl) => testConfig(sandboxUrl),
        bffOptions: {
          now: clock.now,
          startWorkers: false,
          privacyErasureStep: async (step) => {
            if (step === 'esims') {
              stopped = true;
              throw new Error('killed after its first step');
            }
          },
        },
      });
      const asked = await call(first.server.url, '/v1/partner/privacy/erasures', {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
        body: { checkoutId: sale.checkoutId },
      });
      expect(asked.status, asked.text).toBe(202);
      await first.bff.privacyErasures.runDue();
      expect(stopped).toBe(true);
      const halfway = await call(first.server.url, `/v1/partner/privacy/erasures/${asked.body.data.id}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(halfway.body.data.status).toBe('pending');
      await first.server.close();
      await first.bff.close();

      // Started again: the job's lease runs out and it goes on from the step it reached.
      clock.advance(2 * 60_000);
      running.bff = await startBff(running.sandbox.url, {
        sessionSecret: randomBytes(32),
        store: running.under.reopen(clock),
        config: (sandboxUrl) => testConfig(sandboxUrl),
        bffOptions: { now: clock.now, startWorkers: false },
      });
      await running.bff.bff.privacyErasures.runDue();
      const read = await call(running.bff.server.url, `/v1/partner/privacy/erasures/${asked.body.data.id}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(read.body.data).toMatchObject({ status: 'completed', erased: { checkouts: 1, esims: 1 } });
      const checkout = await call(running.bff.server.url, `/v1/partner/checkouts/${sale.checkoutId}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      expect(checkout.body.data).toMatchObject({ status: 'ready', email: null });
    });
  });
}

erasureOn('embedded', async (clock) => embedded(clock));
erasureOn('Redis', async () => await redisBacked());
