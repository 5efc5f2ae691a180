/**
 * The after-sale state on a real Redis shared by two BFF instances: an event queued by both is one delivery,
 * two senders working the same queue deliver it (at least once), empty the queue and leave it listed delivered
 * in the partner's desk on either instance, and a manage token revoked
 * on one instance is refused on the other.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { pendingDelivery, verifyEsimWebhook } from '../../testing/webhook-receiver';
import { createManageTokens } from '../after-sale/manage-token';
import { createLogger } from '../logger';
import { createRedisStore } from '../store/redis-store';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { createWebhookDeliveryDesk } from './webhook-delivery-desk';
import { createWebhookQueue, type WebhookQueue } from './webhook-queue';
import { createWebhookSender } from './webhook-sender';

let redis: RunningRedis;
let stores: Store[];
let server: Server;
let receiverUrl: string;
const received: { id: string | undefined; signature: string | undefined; body: string }[] = [];
const secret = randomBytes(24).toString('hex');

beforeAll(async () => {
  redis = await startRedisServer();
  const prefix = `bff-${randomBytes(4).toString('hex')}:`;
  stores = [0, 1].map(() => createRedisStore({ url: redis.url, keyPrefix: prefix }));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        id: request.headers['esim-webhook-id'] as string | undefined,
        signature: request.headers['esim-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  for (const store of stores ?? []) await store.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await redis?.stop();
});

describe('after-sale state on Redis', () => {
  it('one event queued by two instances is one delivery, delivered and taken off the queue', async () => {
    const logger = createLogger({ level: 'error', write: () => {} });
    const widget = {
      config: { id: 'shop', webhookUrl: receiverUrl },
      webhookSecret: secret,
    } as unknown as WidgetRuntime;
    const widgets = new Map([['shop', widget]]);
    const queues = stores.map((store) => createWebhookQueue(store));
    const now = Date.now();
    const delivery = pendingDelivery(`evt_${randomBytes(6).toString('hex')}`, 'shop', now, {
      type: 'checkout.completed',
      body: JSON.stringify({ hello: 'partner' }),
    });
    const queued = await Promise.all(queues.map((queue) => queue.enqueue(delivery)));
    expect(queued.filter(Boolean)).toHaveLength(1);
    expect((await queues[0]?.stats())?.size).toBe(1);
    const senders = queues.map((queue, index) =>
      createWebhookSender({ queue, store: stores[index] as Store, widgets, logger, retryForMs: 86_400_000 }),
    );
    await Promise.all(senders.map((sender) => sender.deliverDue()));
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(received.every((request) => request.id === delivery.id)).toBe(true);
    const first = received[0];
    expect(await verifyEsimWebhook(secret, first?.signature, first?.body ?? '')).toBe(true);
    expect((await queues[1]?.read(delivery.id))?.delivery.state).toBe('delivered');
    expect((await queues[1]?.stats())?.size).toBe(0);
    // The partner's desk on the other instance lists it delivered, from the indexes in Redis.
    const desk = createWebhookDeliveryDesk({
      queue: queues[1] as WebhookQueue,
      store: stores[1] as Store,
      retryForMs: 86_400_000,
    });
    const delivered = await desk.list(['shop'], { status: 'delivered' }, null, 10);
    expect(delivered.items.map((item) => [item.id, item.status, item.attemptCount])).toEqual([
      [delivery.id, 'delivered', 1],
    ]);
    expect((await desk.list(['shop'], { status: 'pending' }, null, 10)).items).toEqual([]);
  });

  it('a manage token revoked on one instance is refused on the other', async () => {
    const sessionSecret = randomBytes(32);
    const [one, two] = stores.map((store) => createManageTokens({ secrets: [sessionSecret], store })) as [
      ReturnType<typeof createManageTokens>,
      ReturnType<typeof createManageTokens>,
    ];
    const subject = { widgetId: 'shop', environment: 'test', esimId: 'esim_1', checkoutId: null } as const;
    const link = await one.mint({ ...subject, serviceEndsAtMs: null });
    // The other instance gives the same link (one per eSIM and widget), and opens it.
    expect((await two.mint({ ...subject, serviceEndsAtMs: null })).manageToken).toBe(link.manageToken);
    expect((await two.verify(link.manageToken)).esim).toBe('esim_1');
    await one.revoke(link.id, new Set(['shop']));
    await expect(two.verify(link.manageToken)).rejects.toMatchObject({
      code: 'widget_session_invalid',
      params: { reason: 'revoked' },
    });
  });
});
