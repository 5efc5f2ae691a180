/**
 * Reconciliation over real HTTP: two BFFs on one store in front of the real sandbox, a partner's webhook
 * receiver behind them. An order placed upstream for a checkout that never linked it (its placement had failed)
 * is adopted, and the checkout goes on to `ready` with its webhooks; an order under a reference that is no
 * checkout of this BFF is reported once — one log line and one signed `order.unmatched` per widget of that
 * account — even with both instances reconciling at once; orders of either widget's checkouts are left alone,
 * and so is the order of a checkout whose record expired, while the order of one lost with the store before its
 * retention ended is reported like a foreign one. An order
 * refunded outside this BFF ends its finished checkout at the next pass, with one `checkout.refunded` naming the
 * checkout, though nobody reads it.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import {
  CheckoutWebhookEventSchema,
  type OrderUnmatchedWebhookEvent,
  OrderUnmatchedWebhookEventSchema,
  PARTNER_SECRET_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type RunningBff,
  startBff,
  testConfig,
  type WidgetPage,
} from '../../testing/stack';
import {
  postingWebhooksTo,
  startReceiver,
  verifyEsimWebhook,
  type WebhookReceiver,
} from '../../testing/webhook-receiver';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS } from '../store/store';
import { createCheckoutSecrets } from './checkout-access';
import { createCheckoutRepository } from './checkout-record';
import { createOrderReconciliation } from './order-reconciliation';
import { createOrderReferences } from './order-references';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let one: RunningBff;
let two: RunningBff;
const store = createMemoryStore();
const sessionSecret = randomBytes(32);

beforeAll(async () => {
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 100,
  });
  receiver = await startReceiver();
  const config = (url: string) =>
    postingWebhooksTo(
      testConfig(url, { checkoutWatchSeconds: 1 }),
      receiver.url,
      (widget) => widget.id !== 'shop-rub',
    );
  const options = {
    sessionSecret,
    store,
    config,
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    bffOptions: { webhooks: { intervalMs: 25 } },
  };
  [one, two] = await Promise.all([startBff(sandbox.url, options), startBff(sandbox.url, options)]);
});
afterAll(async () => {
  await Promise.all([one?.server.close(), two?.server.close()]);
  await receiver?.close();
  await sandbox?.close();
});

async function offerOn(page: WidgetPage): Promise<string> {
  const destinations = await page.get('/v1/destinations');
  const plans = await page.get(`/v1/destinations/${destinations.body.data[0].code}/plans`);
  return plans.body.data[0].offerId;
}

async function checkout(page: WidgetPage, offerId: string, beforeCheckout = async () => {}) {
  const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
  expect(quote.status).toBe(201);
  await beforeCheckout();
  return await page.post(
    '/v1/checkouts',
    { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    { 'Idempotency-Key': newKey() },
  );
}

/** An order placed straight on the sandbox, as another system (or a lost answer) would leave it. */
async function orderUpstream(offerId: string, externalRef: string): Promise<string> {
  const headers = { 'X-Api-Key': SANDBOX_KEYS.globetrotter, 'Content-Type': 'application/json' };
  const quote = await fetch(`${sandbox.url}/quotes`, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': newKey() },
    body: JSON.stringify({ offerId }),
  });
  const order = await fetch(`${sandbox.url}/orders`, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': newKey() },
    body: JSON.stringify({
      quoteId: ((await quote.json()) as { data: { id: string } }).data.id,
      externalRef,
    }),
  });
  expect(order.status).toBe(201);
  return ((await order.json()) as { data: { id: string } }).data.id;
}

/**
 * A pass of an instance on the shared store whose clock reads `now` (the BFF's own passes read the wall clock),
 * with the orders it reported; reported again by a later pass only when not yet reported (the store remembers).
 */
async function passAt(now: () => number): Promise<{ reported: number; orders: string[] }> {
  const orders: string[] = [];
  const pass = await createOrderReconciliation({
    store,
    widgets: one.bff.widgets,
    repository: createCheckoutRepository(store),
    orderReferences: createOrderReferences(store),
    reportUnmatched: async (_widget, order) => {
      orders.push(order.id);
    },
    logger: createLogger({ level: 'error', write: () => {} }),
    madeHere: createCheckoutSecrets([sessionSecret]).madeCheckoutId,
    retryWindowMs: 15 * 60_000,
    now,
  }).run();
  return { reported: pass.reported, orders };
}

const partnerRead = async (id: string) =>
  (
    await call(two.server.url, `/v1/partner/checkouts/${id}`, {
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    })
  ).body.data as { status: string; order: { id: string } | null };

/** The accepted deliveries of one kind, each checked against its signature. */
async function delivered(type: string): Promise<unknown[]> {
  const accepted = receiver.received
    .filter((request) => request.answered === 200)
    .filter((request) => JSON.parse(request.body).type === type);
  return await Promise.all(
    accepted.map(async (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
      expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, request.body)).toBe(true);
      expect(request.headers[WEBHOOK_ID_HEADER.toLowerCase()]).toBe(JSON.parse(request.body).id);
      return JSON.parse(request.body) as unknown;
    }),
  );
}

const logLines = (message: string) =>
  [...one.logs, ...two.logs].filter((line) => line.includes(`"message":"${message}"`));

describe('reconciliation of upstream orders', () => {
  it('adopts an order placed for a checkout that never linked it: the checkout goes on to ready', async () => {
    const page = await openWidget(one.server.url, 'shop');
    const offerId = await offerOn(page);
    // The placement fails (the price moved between quote and order): the checkout is failed, without an order.
    const failed = await checkout(page, offerId, async () => {
      await sandbox.control.bumpPricing();
    });
    expect(failed.body.error.code).toBe('price_changed');
    const checkoutId: string = failed.body.error.params.checkoutId;
    expect(await partnerRead(checkoutId)).toMatchObject({ status: 'failed', order: null });
    // …and yet an order under its reference reaches the upstream (an answer lost, a retry that got through).
    const orderId = await orderUpstream(offerId, checkoutId);

    const pass = await one.bff.orderReconciliation.run();
    expect(pass.adopted).toBe(1);
    expect(pass.reported).toBe(0);
    const ready = await eventually(async () => {
      const read = await partnerRead(checkoutId);
      return read.status === 'ready' ? read : undefined;
    });
    expect(ready.order?.id).toBe(orderId);
    expect(logLines('upstream order adopted by its checkout')).toHaveLength(1);
    const completed = await eventually(async () =>
      (await delivered('checkout.completed'))
        .map((event) => CheckoutWebhookEventSchema.parse(event))
        .find((event) => event.data.checkout.id === checkoutId),
    );
    expect(completed.data.checkout.order?.id).toBe(orderId);
    // Adopted once: the next pass finds it linked.
    expect((await two.bff.orderReconciliation.run()).adopted).toBe(0);
  });

  it('reports an order under an unknown reference once, signed, to each widget of the account', async () => {
    // Orders of both widgets' checkouts are on the same upstream account: they belong, nothing to report.
    const shop = await openWidget(one.server.url, 'shop');
    expect((await checkout(shop, await offerOn(shop))).status).toBe(201);
    const pay = await openWidget(one.server.url, 'shop-pay');
    const awaiting = await checkout(pay, await offerOn(pay));
    const confirmed = await call(two.server.url, `/v1/partner/checkouts/${awaiting.body.data.id}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
    });
    expect(confirmed.status).toBe(200);
    const orderId = await orderUpstream(await offerOn(shop), 'pos-till-42');

    const passes = await Promise.all([one.bff.orderReconciliation.run(), two.bff.orderReconciliation.run()]);
    expect(passes.map((pass) => pass.reported).reduce((a, b) => a + b)).toBe(1);
    const again = await Promise.all([one.bff.orderReconciliation.run(), two.bff.orderReconciliation.run()]);
    expect(again.map((pass) => pass.reported)).toEqual([0, 0]);

    const events = await eventually(async () => {
      const found = (await delivered('order.unmatched')).map((event) =>
        OrderUnmatchedWebhookEventSchema.parse(event),
      );
      return found.length >= 2 ? found : undefined;
    });
    // Nothing more arrives: one delivery per widget, not one per instance or per pass.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all: OrderUnmatchedWebhookEvent[] = (await delivered('order.unmatched')).map((event) =>
      OrderUnmatchedWebhookEventSchema.parse(event),
    );
    expect(all).toHaveLength(2);
    expect(all.map((event) => event.widgetId).sort()).toEqual(['shop', 'shop-pay']);
    expect(new Set(all.map((event) => event.id)).size).toBe(2);
    for (const event of events) {
      expect(event.data.order).toMatchObject({ id: orderId, externalRef: 'pos-till-42' });
      expect(event.environment).toBe('test');
    }
    const lines = logLines('upstream order without a checkout');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(orderId);
  });

  it('reports the order of a checkout lost before its retention ended once its traveller can no longer retry, never of one that expired, and a foreign one at once', async () => {
    const shop = await openWidget(one.server.url, 'shop');
    /** A sold checkout whose record is then gone, as a store restored from before it (or its expiry) leaves it. */
    async function soldAndGone(): Promise<{ checkoutId: string; orderId: string }> {
      const created = await checkout(shop, await offerOn(shop));
      expect(created.status).toBe(201);
      const checkoutId: string = created.body.data.id;
      const orderId = await eventually(async () => (await partnerRead(checkoutId)).order?.id);
      const stored = await store.get(STORE_KEYS.checkout(checkoutId));
      expect(await store.compareAndDelete(STORE_KEYS.checkout(checkoutId), stored?.version ?? 0)).toBe(true);
      return { checkoutId, orderId };
    }
    const lost = await soldAndGone();
    const expired = await soldAndGone();
    // The expired one entered placing longer ago than a checkout is kept (30 days): its record ended in time.
    const referenceKey = STORE_KEYS.orderReference(expired.checkoutId);
    const kept = await store.get(referenceKey);
    const reference = JSON.parse(kept?.value ?? 'null');
    expect(reference).toMatchObject({ checkoutId: expired.checkoutId, widgetId: 'shop' });
    expect(typeof reference.recordedAt).toBe('number');
    const placedLongAgo = { ...reference, recordedAt: Date.now() - 31 * 24 * 60 * 60 * 1000 };
    expect(
      await store.compareAndSet(referenceKey, kept?.version ?? 0, JSON.stringify(placedLongAgo), 60_000),
    ).toBe(true);
    const foreign = await orderUpstream(await offerOn(shop), `pos-till-${randomBytes(4).toString('hex')}`);
    const reportedBefore = logLines('upstream order without a checkout').length;

    // Now: the foreign order is reported; the lost one is left to its traveller's retry (a warning), the expired
    // one is only noted.
    const pass = await one.bff.orderReconciliation.run();
    expect(pass.reported).toBe(1);
    const reported = logLines('upstream order without a checkout').slice(reportedBefore);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(foreign);
    expect(reported[0]).toContain('"checkoutLost":false');
    expect(
      logLines("upstream order of a checkout the store lost: left to its traveller's retry").some((line) =>
        line.includes(lost.orderId),
      ),
    ).toBe(true);
    expect(
      logLines('upstream order of a checkout no longer stored').some((line) =>
        line.includes(expired.orderId),
      ),
    ).toBe(true);
    // Said once an order by an instance: its next pass reads the order again and says nothing more of it.
    await one.bff.orderReconciliation.run();
    const noted = one.logs.filter(
      (line) =>
        line.includes('"message":"upstream order of a checkout no longer stored"') &&
        line.includes(expired.orderId),
    );
    expect(noted).toHaveLength(1);
    const unmatched = async () =>
      (await delivered('order.unmatched')).map((event) => OrderUnmatchedWebhookEventSchema.parse(event));
    const toldOf = async (orderId: string) =>
      (await unmatched()).filter((event) => event.data.order.id === orderId).length;
    await eventually(async () => ((await toldOf(foreign)) === 2 ? true : undefined));
    expect(await toldOf(lost.orderId)).toBe(0);

    // Past a session's lifetime no retry can make the lost checkout again: the partner hears of it.
    const late = await passAt(() => Date.now() + 16 * 60_000);
    expect(late.orders).toContain(lost.orderId);
    expect(late.orders).not.toContain(expired.orderId);
    expect(late.orders).not.toContain(foreign);
  });

  it('ends a finished checkout whose order was refunded outside the BFF, told once, without a read', async () => {
    const shop = await openWidget(one.server.url, 'shop');
    const created = await checkout(shop, await offerOn(shop));
    expect(created.status).toBe(201);
    const checkoutId: string = created.body.data.id;
    const sold = await eventually(async () => {
      const read = await partnerRead(checkoutId);
      return read.status === 'ready' ? read : undefined;
    });
    const orderId = sold.order?.id as string;
    // Settled first: the sale's own passes have nothing left to follow.
    await Promise.all([one.bff.orderReconciliation.run(), two.bff.orderReconciliation.run()]);
    const refundedFor = async () =>
      (await delivered('checkout.refunded'))
        .map((event) => CheckoutWebhookEventSchema.parse(event))
        .filter((event) => event.data.checkout.id === checkoutId);
    expect(await refundedFor()).toEqual([]);

    // The upstream refunds the order on its own (or the partner asked it directly): no help request, no read.
    await sandbox.control.refundOrder(orderId);
    const passes = await Promise.all([one.bff.orderReconciliation.run(), two.bff.orderReconciliation.run()]);
    expect(passes.map((pass) => pass.followed).reduce((a, b) => a + b)).toBe(1);

    const [refunded] = await eventually(async () => {
      const found = await refundedFor();
      return found.length > 0 ? found : undefined;
    });
    expect(refunded?.data.checkout).toMatchObject({ id: checkoutId, status: 'cancelled' });
    expect(refunded?.data.checkout.order?.id).toBe(orderId);
    // Once, whichever instance saw it: a pass after that finds nothing new.
    expect((await one.bff.orderReconciliation.run()).followed).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await refundedFor()).toHaveLength(1);
    const cancelled = (await delivered('checkout.cancelled'))
      .map((event) => CheckoutWebhookEventSchema.parse(event))
      .filter((event) => event.data.checkout.id === checkoutId);
    expect(cancelled).toHaveLength(1);
  });

  /**
   * A sale whose order the upstream placed, then every record naming that order lost with the store (a failover):
   * the checkout and its order reference.
   */
  async function saleTheStoreLost(): Promise<{ orderId: string }> {
    const shop = await openWidget(one.server.url, 'shop');
    const created = await checkout(shop, await offerOn(shop));
    expect(created.status).toBe(201);
    const checkoutId: string = created.body.data.id;
    const orderId = await eventually(async () => (await partnerRead(checkoutId)).order?.id);
    for (const key of [STORE_KEYS.checkout(checkoutId), STORE_KEYS.orderReference(checkoutId)]) {
      expect(await store.compareAndDelete(key, (await store.get(key))?.version ?? 0)).toBe(true);
    }
    return { orderId };
  }

  it('leaves the order of a checkout the store lost to its traveller for a session, then reports it', async () => {
    const { orderId } = await saleTheStoreLost();
    // Within a session's lifetime the traveller's retry may still make the checkout again: not reported.
    const now = await passAt(Date.now);
    expect(now.reported).toBe(0);
    expect(now.orders).not.toContain(orderId);
    // Past it, nobody can: the partner hears of a sale no checkout holds.
    const late = await passAt(() => Date.now() + 16 * 60_000);
    expect(late.reported).toBeGreaterThanOrEqual(1);
    expect(late.orders).toContain(orderId);
  });

  it('warns of the order of a checkout the store lost once, not at every pass of its retry window', async () => {
    const { orderId } = await saleTheStoreLost();
    const warnings = () =>
      logLines("upstream order of a checkout the store lost: left to its traveller's retry").filter((line) =>
        line.includes(orderId),
      );
    // Three passes of one instance within the traveller's retry window (a pass a minute would make fifteen).
    for (let pass = 0; pass < 3; pass += 1) await one.bff.orderReconciliation.run();
    expect(warnings()).toHaveLength(1);
  });
});
