/**
 * One partner's dead endpoint, over real HTTP to local receivers, on the memory store, the embedded store (in a
 * temporary data directory) and a real `redis-server`: another partner's event still goes out in the same sweep,
 * the dead endpoint is called once per backoff step (not once per waiting event), the backlog drains once it answers again, and what waited past the retry span
 * is given up without a call. The sender runs on an injected clock, so backoff steps pass without waiting.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRedis, startRedisServer } from '../../testing/redis-server';
import { startReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { createLogger } from '../logger';
import { createMemoryStore } from '../store/memory-store';
import { createRedisStore } from '../store/redis-store';
import { openSqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { queueWebhookEvent } from './webhook-events';
import { createWebhookQueue, type WebhookQueue } from './webhook-queue';
import { createWebhookSender, type WebhookSender, webhookBackoffMs } from './webhook-sender';

const SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const HOUR = 60 * 60 * 1000;

let redis: RunningRedis;
const opened: Store[] = [];
const receivers: WebhookReceiver[] = [];
const dataDirs = mkdtempSync(join(tmpdir(), 'esim-circuit-test-'));
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await redis?.stop();
  rmSync(dataDirs, { recursive: true, force: true });
});

const implementations: Array<[string, () => Store]> = [
  ['memory', () => createMemoryStore()],
  ['embedded', () => openSqliteStore({ dataDir: mkdtempSync(join(dataDirs, 'data-')) })],
  [
    'redis',
    () => createRedisStore({ url: redis.url, keyPrefix: `circuit-${randomBytes(4).toString('hex')}:` }),
  ],
];

interface Scene {
  queue: WebhookQueue;
  sender: WebhookSender;
  down: WebhookReceiver;
  up: WebhookReceiver;
  clock: { now: number };
  logs: string[];
}

async function scene(store: Store, retryForMs = 24 * HOUR): Promise<Scene> {
  opened.push(store);
  const down = await startReceiver(Number.POSITIVE_INFINITY);
  const up = await startReceiver(0);
  receivers.push(down, up);
  const widget = (id: string, url: string) =>
    [id, { config: { id, webhookUrl: url }, webhookSecret: SECRET } as unknown as WidgetRuntime] as const;
  const clock = { now: Date.parse('2026-06-01T00:00:00Z') };
  const logs: string[] = [];
  const queue = createWebhookQueue(store);
  const sender = createWebhookSender({
    queue,
    store,
    widgets: new Map([widget('dead-shop', down.url), widget('live-shop', up.url)]),
    logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
    retryForMs,
    now: () => clock.now,
  });
  return { queue, sender, down, up, clock, logs };
}

/** Events queued at once: the embedded store commits each batch to disk together, Redis answers well in time. */
const QUEUED_TOGETHER = 50;

async function queueEvents(queue: WebhookQueue, widgetId: string, count: number, atMs: number) {
  for (let first = 0; first < count; first += QUEUED_TOGETHER) {
    const batch = Array.from({ length: Math.min(QUEUED_TOGETHER, count - first) }, (_, at) => first + at);
    await Promise.all(
      batch.map((index) =>
        queueWebhookEvent(
          queue,
          {
            id: `evt_${widgetId}_${index}`,
            type: 'account.balance_low',
            createdAt: new Date(atMs).toISOString(),
            widgetId,
            environment: 'test',
            data: {},
          } as never,
          atMs,
        ),
      ),
    );
  }
}

describe.each(implementations)('webhook circuits on the %s store', (_name, makeStore) => {
  it('keeps one dead endpoint from delaying another partner, probes it once per backoff step, then drains', async () => {
    const { queue, sender, down, up, clock } = await scene(makeStore());
    await queueEvents(queue, 'dead-shop', 1_000, clock.now - 1_000);
    await queueEvents(queue, 'live-shop', 1, clock.now);

    // One sweep: the live partner's event is delivered; the dead endpoint was called once, not 1,000 times.
    await sender.deliverDue();
    expect(up.received).toHaveLength(1);
    expect(down.received).toHaveLength(1);

    // Backoff steps: nothing before each step ends, one probe when it does (10 s, 20 s, 40 s).
    let calls = 1;
    for (let step = 1; step <= 3; step += 1) {
      clock.now += webhookBackoffMs(step) - 1;
      await sender.deliverDue();
      expect(down.received).toHaveLength(calls);
      clock.now += 1;
      await sender.deliverDue();
      calls += 1;
      expect(down.received).toHaveLength(calls);
    }
    expect(await queue.stats()).toMatchObject({ size: 1_000 });

    // The endpoint is back: the next probe succeeds and the backlog drains, each event once.
    down.failFirst = down.received.length;
    clock.now += webhookBackoffMs(4);
    // Each round a backoff step later, so that a delivery a busy machine timed out is retried, not stranded.
    for (let round = 0; round < 30 && (await queue.stats()).size > 0; round += 1) {
      await sender.deliverDue();
      clock.now += webhookBackoffMs(1);
    }
    expect((await queue.stats()).size).toBe(0);
    const delivered = down.received.filter((request) => request.answered === 200);
    const ids = new Set(delivered.map((request) => request.headers['esim-webhook-id']));
    expect(delivered).toHaveLength(1_000);
    expect(ids.size).toBe(1_000);
  }, 60_000);

  it('gives up what waited past the retry span without calling the dead endpoint for each', async () => {
    const { queue, sender, down, clock, logs } = await scene(makeStore(), HOUR);
    await queueEvents(queue, 'dead-shop', 150, clock.now);
    await sender.deliverDue();
    expect(down.received).toHaveLength(1);
    clock.now += HOUR + 1;
    for (let round = 0; round < 10 && (await queue.stats()).size > 0; round += 1) await sender.deliverDue();
    expect((await queue.stats()).size).toBe(0);
    // At most one call per round (each probe), never one per event.
    expect(down.received.length).toBeLessThanOrEqual(4);
    const first = await queue.read('evt_dead-shop_0');
    const last = await queue.read('evt_dead-shop_149');
    expect(first?.delivery.state).toBe('gave_up');
    expect(last?.delivery.state).toBe('gave_up');
    expect(logs.filter((line) => line.includes('webhook given up'))).toHaveLength(150);
  }, 60_000);
});
