/**
 * A delivery the release before queued with the traveller's address in its body (a record fixture) is still
 * delivered after the deploy, signed over what is sent: with the address its checkout holds, and without it once the
 * traveller was erased. An event queued by this release keeps no address in its stored body.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WEBHOOK_SIGNATURE_HEADER, type WebhookEvent } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, verifyEsimWebhook, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createCheckoutRepository, readCheckoutRecord } from '../checkout/checkout-record';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { STORE_KEYS } from '../store/store';
import { QUEUE_NAMES } from '../store/work-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createWebhookBodies } from './webhook-body';
import { createWebhookEmitter } from './webhook-events';
import { createWebhookQueue } from './webhook-queue';
import { createWebhookSender } from './webhook-sender';

const SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const fixture = (name: string) =>
  readFileSync(new URL(`../store/record-fixtures/${name}`, import.meta.url), 'utf8');
const DELIVERY = fixture('webhook-delivery.queued-with-traveller-email.json');
const CHECKOUT = fixture('checkout.partner-confirm-awaiting-payment.json');
const ADDRESS = 'traveller.last-month@example.org';
const silent = createLogger({ level: 'error', write: () => {} });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver(0);
});
afterAll(async () => {
  await receiver?.close();
});

/** A store holding the fixture's delivery, on the queue as the release before left it, and its checkout. */
async function lastMonthsQueue(email: string | null) {
  const store = createMemoryStore();
  const delivery = JSON.parse(DELIVERY) as { id: string; widgetId: string; nextAttemptAtMs: number };
  await store.insert(STORE_KEYS.webhookDelivery(delivery.id), DELIVERY, 60_000);
  await store.queue(QUEUE_NAMES.webhookDeliveries).add({
    id: delivery.id,
    partition: delivery.widgetId,
    dueAtMs: delivery.nextAttemptAtMs,
  });
  const checkout = { ...readCheckoutRecord(CHECKOUT), email };
  const repository = createCheckoutRepository(store);
  await repository.insertCheckout(checkout);
  const widget = {
    config: { id: delivery.widgetId, webhookUrl: receiver.url },
    webhookSecret: SECRET,
  } as unknown as WidgetRuntime;
  const sender = createWebhookSender({
    queue: createWebhookQueue(store),
    store,
    widgets: new Map([[delivery.widgetId, widget]]),
    logger: silent,
    retryForMs: 24 * 60 * 60_000,
    bodies: createWebhookBodies(repository),
    now: () => delivery.nextAttemptAtMs,
  });
  return { store, sender, delivery, repository, widget };
}

/** The one request the receiver took for `id`, its signature checked, parsed. */
async function receivedEvent(id: string): Promise<WebhookEvent> {
  const request = receiver.received.filter((candidate) => candidate.body.includes(id)).at(-1);
  if (request === undefined) throw new Error(`nothing received for ${id}`);
  const signature = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
  const signedAt = Number(/t=(\d+)/.exec(signature)?.[1]);
  expect(await verifyEsimWebhook(SECRET, signature, request.body, signedAt)).toBe(true);
  return JSON.parse(request.body) as WebhookEvent;
}

const emailOf = (event: WebhookEvent) =>
  'checkout' in event.data ? (event.data.checkout as { email: string | null }).email : undefined;

describe('a delivery queued by the release before, with the address in its body', () => {
  it('is delivered after the deploy, with the address its checkout holds', async () => {
    const { sender, delivery } = await lastMonthsQueue(ADDRESS);
    await sender.deliverDue();
    expect(emailOf(await receivedEvent(delivery.id))).toBe(ADDRESS);
  });

  it('is delivered without the address once its traveller was erased', async () => {
    receiver.received.length = 0;
    const { sender, delivery } = await lastMonthsQueue(null);
    await sender.deliverDue();
    const event = await receivedEvent(delivery.id);
    expect(event.type).toBe('checkout.awaiting_payment');
    expect(emailOf(event)).toBeNull();
  });
});

describe('an event queued by this release', () => {
  it('keeps no address in its stored body, and sends the one its checkout holds', async () => {
    receiver.received.length = 0;
    const { store, sender, repository, widget } = await lastMonthsQueue(ADDRESS);
    const emit = createWebhookEmitter({
      queue: createWebhookQueue(store),
      widgets: new Map([['shop-pay', widget]]),
      logger: silent,
      now: () => JSON.parse(DELIVERY).nextAttemptAtMs,
    });
    const stored = await repository.getCheckout(JSON.parse(CHECKOUT).id);
    if (stored === null) throw new Error('no checkout');
    const failed = { ...stored.record, status: 'failed' as const };
    await emit(stored.record, failed);
    const keys = await store.scanKeys(STORE_KEYS.webhookDelivery(''), null, 100);
    const bodies = await Promise.all(keys.keys.map((key) => store.get(key)));
    const queued = bodies
      .map((entry) => entry?.value ?? '')
      .filter((value) => value.includes('checkout.failed'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).not.toContain(ADDRESS);
    await sender.deliverDue();
    const sent = receiver.received.map((request) => JSON.parse(request.body) as WebhookEvent);
    expect(sent.find((event) => event.type === 'checkout.failed')).toMatchObject({
      data: { checkout: { email: ADDRESS } },
    });
  });
});
