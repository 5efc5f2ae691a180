/**
 * Webhooks over real HTTP: the BFF in front of the real sandbox posts signed events to a real local receiver.
 * The receiver fails its first answers and the retries (on an injectable clock) get the event through; the
 * sandbox's own order progression drives the events while nobody polls; the signature is checked with the
 * very code docs/webhooks.md gives partners; an event that never gets through is given up after the span.
 */
import { randomBytes } from 'node:crypto';
import {
  type CheckoutWebhookEvent,
  CheckoutWebhookEventSchema,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  WEBHOOK_DELIVERY_ATTEMPTS_LISTED,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyEsim, myEsim, topUpablePlan, untilReady } from '../../testing/after-sale-flow';
import {
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  type Stack,
  startStack,
  testConfig,
} from '../../testing/stack';
import {
  pendingDelivery,
  postingWebhooksTo,
  startReceiver,
  verifyEsimWebhook,
  type WebhookReceiver,
} from '../../testing/webhook-receiver';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS, type Store } from '../store/store';
import { QUEUE_NAMES } from '../store/work-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createWebhookQueue } from './webhook-queue';
import { createWebhookSender, webhookBackoffMs } from './webhook-sender';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
/** How often the background watches look (the config's shortest is a second). */
const WATCH_MS = 100;
/** The sender's clock runs ahead of the wall clock by this much (to make retries due without waiting). */
let clockOffsetMs = 0;
const senderNow = () => Date.now() + clockOffsetMs;

let receiver: WebhookReceiver;
let stack: Stack;
/** The BFF's store, to see when the sender has taken a failure. */
const bffStore = createMemoryStore();
beforeAll(async () => {
  receiver = await startReceiver(2);
  stack = await startStack({
    store: bffStore,
    // Orders take a moment, so that they finish while nobody polls.
    sandbox: { stepDelaysMs: { provisioning: 150, delivery: 150, completion: 0 } },
    config: (sandboxUrl) =>
      postingWebhooksTo(
        testConfig(sandboxUrl, { checkoutWatchSeconds: 1 }),
        receiver.url,
        (widget) => widget.id !== 'shop-rub',
      ),
    env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
    bffOptions: { webhooks: { intervalMs: 25, now: senderNow }, watchIntervalMs: WATCH_MS },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

/** The events the receiver accepted (2xx), parsed, verified with the documented snippet. */
async function accepted(): Promise<CheckoutWebhookEvent[]> {
  const answered = receiver.received.filter((request) => request.answered === 200);
  return await Promise.all(
    answered.map(async (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
      expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, request.body, senderNow() / 1000)).toBe(true);
      const event = CheckoutWebhookEventSchema.parse(JSON.parse(request.body));
      expect(request.headers[WEBHOOK_ID_HEADER.toLowerCase()]).toBe(event.id);
      return event;
    }),
  );
}

/**
 * Waits until the sender has taken the `failures`-th failure of `widgetId`'s endpoint: the delivery's next attempt
 * and the endpoint's pause are then set from the sender's clock as it was, so moving that clock on makes them due.
 * (Moved on earlier, between the receiver's answer and the sender's bookkeeping, the clock would push them on too.)
 */
const failureTaken = (widgetId: string, failures: number) =>
  eventually(async () => {
    const circuit = await bffStore.get(STORE_KEYS.webhookCircuit(widgetId));
    return circuit !== null && JSON.parse(circuit.value).failures === failures ? true : undefined;
  }, 30_000);

const eventOf = (checkoutId: string, type: CheckoutWebhookEvent['type']) =>
  eventually(async () =>
    (await accepted()).find((event) => event.type === type && event.data.checkout.id === checkoutId),
  );

describe('webhooks', () => {
  let checkoutId: string;

  it('delivers checkout.awaiting_payment signed, retried after the receiver fails twice', async () => {
    const page = await openWidget(stack.server.url, 'shop-pay');
    const plan = await topUpablePlan(page);
    const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    checkoutId = checkout.body.data.id;
    // First attempt at once, answered 500.
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined));
    // Backoff: nothing more until the clock reaches the next attempt (10 s, then 20 s).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(1);
    await failureTaken('shop-pay', 1);
    clockOffsetMs += webhookBackoffMs(1) + 1_000;
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 30_000);
    await failureTaken('shop-pay', 2);
    clockOffsetMs += webhookBackoffMs(2) + 1_000;
    const event = await eventOf(checkoutId, 'checkout.awaiting_payment');
    expect(event).toMatchObject({ widgetId: 'shop-pay', environment: 'test' });
    expect(event.data.checkout).toMatchObject({
      id: checkoutId,
      status: 'awaiting_payment',
      externalRef: checkoutId,
    });
    // All three attempts carried the same event id and body: one event, delivered at least once.
    const attempts = receiver.received.slice(0, 3);
    expect(new Set(attempts.map((request) => request.headers[WEBHOOK_ID_HEADER.toLowerCase()]))).toEqual(
      new Set([event.id]),
    );
    expect(attempts.map((request) => request.answered)).toEqual([500, 500, 200]);
    // Visible in the logs with id, type, attempt and result — never the secret or the body.
    const lines = stack.logs.filter((line) => line.includes(event.id));
    expect(
      lines.some((line) => line.includes('webhook delivery failed') && line.includes('"attempt":1')),
    ).toBe(true);
    expect(lines.some((line) => line.includes('webhook delivered') && line.includes('"attempt":3'))).toBe(
      true,
    );
    expect(stack.logs.join('\n')).not.toContain(WEBHOOK_SECRET);
  });

  it('a tampered body or an old timestamp fails the documented check', async () => {
    const request = receiver.received.find((candidate) => candidate.answered === 200);
    const signature = request?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    const body = request?.body ?? '';
    expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, body, senderNow() / 1000)).toBe(true);
    expect(
      await verifyEsimWebhook(
        WEBHOOK_SECRET,
        signature,
        body.replace('shop-pay', 'shop-paz'),
        senderNow() / 1000,
      ),
    ).toBe(false);
    expect(await verifyEsimWebhook('whsec_other', signature, body, senderNow() / 1000)).toBe(false);
    expect(await verifyEsimWebhook(WEBHOOK_SECRET, signature, body, senderNow() / 1000 + 3_600)).toBe(false);
  });

  it('the order progression drives checkout.completed and esim.ready while nobody polls', async () => {
    const confirm = await call(stack.server.url, `/v1/partner/checkouts/${checkoutId}/confirm`, {
      method: 'POST',
      headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      body: {},
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.data.status).not.toBe('ready');
    // No status reads from here on: the background watch observes the sandbox finishing the order.
    const completed = await eventOf(checkoutId, 'checkout.completed');
    const ready = await eventOf(checkoutId, 'esim.ready');
    expect(completed.data.checkout.status).toBe('ready');
    expect(ready.data.esimId).toMatch(/\S/);
    expect(ready.id).not.toBe(completed.id);
    // Exactly one delivery per event, however many instances or retries observed the change.
    const ids = (await accepted()).map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a top-up ends in topup.completed with the eSIM id', async () => {
    const esim = await buyEsim(await openWidget(stack.server.url, 'shop'));
    await eventOf(esim.checkoutId, 'esim.ready');
    const page = await openWidget(stack.server.url, 'shop');
    const view = (await myEsim(page, esim.manageToken)).body.data;
    const quote = await page.post(
      '/v1/quotes',
      { offerId: view.topUp.offers[0].offerId, esimId: esim.esimId },
      { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken },
    );
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey(), [MANAGE_TOKEN_HEADER]: esim.manageToken },
    );
    await untilReady(page, checkout.body.data.id, checkout.body.data.clientSecret);
    const topUp = await eventOf(checkout.body.data.id, 'topup.completed');
    expect(topUp.data.esimId).toBe(esim.esimId);
    expect(topUp.data.checkout.kind).toBe('top_up');
  });

  it('a failed provisioning ends in checkout.failed, with no esim.ready', async () => {
    await stack.sandbox.control.armScenario({
      accountId: 'acc_globetrotter',
      scenario: 'provisioning_failed',
      count: 1,
    });
    const page = await openWidget(stack.server.url, 'shop');
    const plan = await topUpablePlan(page);
    const quote = await page.post('/v1/quotes', { offerId: plan.offerId }, { 'Idempotency-Key': newKey() });
    const checkout = await page.post(
      '/v1/checkouts',
      { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
      { 'Idempotency-Key': newKey() },
    );
    expect(checkout.status).toBe(201);
    const failed = await eventOf(checkout.body.data.id, 'checkout.failed');
    expect(failed.data.checkout.failure).toMatchObject({ code: 'provisioning_failed' });
    expect(
      (await accepted()).some(
        (event) => event.type === 'esim.ready' && event.data.checkout.id === checkout.body.data.id,
      ),
    ).toBe(false);
  });
});

describe('webhook retry span', () => {
  it('retries with exponential backoff for at least a day, then gives up (logged)', async () => {
    const failing = await startReceiver(Number.POSITIVE_INFINITY);
    const logs: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
    const store = createMemoryStore();
    const queue = createWebhookQueue(store);
    let now = Date.parse('2026-01-01T00:00:00Z');
    const widget = {
      config: { id: 'shop', webhookUrl: failing.url },
      webhookSecret: WEBHOOK_SECRET,
    } as unknown as WidgetRuntime;
    const sender = createWebhookSender({
      queue,
      store,
      widgets: new Map([['shop', widget]]),
      logger,
      retryForMs: 26 * 60 * 60 * 1000,
      now: () => now,
    });
    const start = now;
    await queue.enqueue(pendingDelivery('evt_span', 'shop', now));
    const gaps: number[] = [];
    for (let round = 0; round < 100; round += 1) {
      await sender.deliverDue();
      const stored = await queue.read('evt_span');
      if (stored?.delivery.state !== 'pending') break;
      gaps.push(stored.delivery.nextAttemptAtMs - now);
      now = stored.delivery.nextAttemptAtMs;
    }
    const final = await queue.read('evt_span');
    expect(final?.delivery.state).toBe('gave_up');
    expect(now - start).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
    expect(gaps.slice(0, 4)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(Math.max(...gaps)).toBe(60 * 60 * 1000);
    expect(failing.received.length).toBe(final?.delivery.attempts);
    // The record keeps only the latest attempts (what the desk lists), however many were made: it does not grow.
    expect(final?.delivery.attempts).toBeGreaterThan(WEBHOOK_DELIVERY_ATTEMPTS_LISTED);
    const history = final?.delivery.history ?? [];
    expect(history).toHaveLength(WEBHOOK_DELIVERY_ATTEMPTS_LISTED);
    // The latest: the first attempts (the first at the start) are the ones let go.
    expect(history[0]?.atMs).toBeGreaterThan(start);
    expect((await queue.stats()).size).toBe(0);
    expect(logs.some((line) => line.includes('webhook given up') && line.includes('evt_span'))).toBe(true);
    await failing.close();
  });
});

describe('an event whose queueing failed', () => {
  it('is queued again by the background watch and delivered once the store answers', async () => {
    const own = await startReceiver(0);
    // The store fails every addition to the webhook queue while `queueDown` is set.
    let queueDown = false;
    const memory = createMemoryStore();
    const store: Store = {
      ...memory,
      queue(name) {
        const queue = memory.queue(name);
        if (name !== QUEUE_NAMES.webhookDeliveries) return queue;
        return {
          ...queue,
          add: async (item) => {
            if (queueDown) throw new Error('store unavailable');
            return await queue.add(item);
          },
        };
      },
    };
    const flaky = await startStack({
      store,
      config: (sandboxUrl) => postingWebhooksTo(testConfig(sandboxUrl, { checkoutWatchSeconds: 1 }), own.url),
      env: { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET },
      bffOptions: { webhooks: { intervalMs: 25 }, watchIntervalMs: WATCH_MS },
    });
    try {
      queueDown = true;
      const esim = await buyEsim(await openWidget(flaky.server.url, 'shop'));
      await eventually(async () =>
        flaky.logs.some(
          (line) => line.includes('a reaction to a checkout change failed') && line.includes(esim.checkoutId),
        )
          ? true
          : undefined,
      );
      expect(own.received).toHaveLength(0);
      queueDown = false;
      const ready = await eventually(async () =>
        own.received
          .map((request) => CheckoutWebhookEventSchema.parse(JSON.parse(request.body)))
          .find((event) => event.type === 'esim.ready' && event.data.checkout.id === esim.checkoutId),
      );
      expect(ready.data.esimId).toBe(esim.esimId);
      // Once: queued twice under the same event id, delivered once — however many more times the watch looks.
      await new Promise((resolve) => setTimeout(resolve, 5 * WATCH_MS));
      const ids = own.received.map((request) => request.headers[WEBHOOK_ID_HEADER.toLowerCase()]);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await flaky.close();
      await own.close();
    }
  });
});
