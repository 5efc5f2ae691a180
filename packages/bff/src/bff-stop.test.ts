/**
 * A stop of the BFF (a deploy's SIGTERM) with background work under way, over real HTTP: a webhook attempt
 * whose partner answers only after the stop began has its outcome stored before the store (embedded, or a real
 * Redis) closes — no error line, and a BFF started again on the same state does not send the event again; a run
 * held up by an upstream that never answers holds the stop no longer than its bound, and is named in a warning.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type HoldingServer, startHoldingServer } from '../testing/holding-server';
import { type RunningRedis, startRedisServer } from '../testing/redis-server';
import {
  eventually,
  SHOP_ORIGIN,
  type Stack,
  startBff,
  startStack,
  testConfig,
  UNANSWERED_UPSTREAM,
  withUpstream,
} from '../testing/stack';
import { pendingDelivery, postingWebhooksTo } from '../testing/webhook-receiver';
import type { BffConfigInput } from './config/config-schema';
import { createLogger } from './logger';
import { createMemoryStore } from './store/memory-store';
import { createRedisStore } from './store/redis-store';
import { openSqliteStore } from './store/sqlite-store';
import type { Store } from './store/store';
import { createWebhookQueue } from './webhooks/webhook-queue';
import { createWebhookSender } from './webhooks/webhook-sender';
import type { WidgetRuntime } from './widgets/widget-runtime';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'esim-bff-stop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const errorLines = (logs: string[]) => logs.filter((line) => line.includes('"level":"error"'));

let redis: RunningRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

/** The stores a BFF keeps its state in: each call opens the same state again (a restart). */
const STORES: { kind: string; state: () => Promise<() => Store> }[] = [
  {
    kind: 'the embedded store',
    async state() {
      const dataDir = mkdtempSync(join(root, 'data-'));
      return () => openSqliteStore({ dataDir });
    },
  },
  {
    kind: 'Redis',
    async state() {
      redis ??= await startRedisServer();
      const { url } = redis;
      const keyPrefix = `stop-${randomBytes(4).toString('hex')}:`;
      return () => createRedisStore({ url, keyPrefix });
    },
  },
];

describe.each(STORES)('a stop with a webhook attempt under way, on $kind', ({ state }) => {
  let stack: Stack | undefined;
  let partner: HoldingServer | undefined;
  afterAll(async () => {
    await stack?.sandbox.close();
    await partner?.close();
  });

  it('stores its outcome before the store closes, logs no error, and the next start does not send it again', async () => {
    partner = await startHoldingServer();
    const webhookUrl = `${partner.url}/hooks/esim`;
    const openStore = await state();
    const config = (sandboxUrl: string): BffConfigInput =>
      postingWebhooksTo(testConfig(sandboxUrl), webhookUrl);
    const env = { TEST_WEBHOOK_SECRET: WEBHOOK_SECRET };
    stack = await startStack({
      store: openStore(),
      config,
      env,
      bffOptions: { webhooks: { intervalMs: 25 } },
    });
    const now = Date.now();
    await stack.bff.webhookQueue.enqueue(pendingDelivery('evt_at_the_stop', 'shop', now));
    await eventually(async () => (partner?.paths.length === 1 ? true : undefined));

    // The stop begins while the partner still holds its answer: it waits for the attempt.
    let stopped = false;
    const stopping = stack.server.close().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe(false);
    partner.answer(200);
    await stopping;
    expect(
      stack.logs.some((line) => line.includes('webhook delivered') && line.includes('evt_at_the_stop')),
    ).toBe(true);

    // The next start on the same state, its clock past any lease the attempt held: nothing to send.
    const store = openStore();
    const stored = await createWebhookQueue(store).read('evt_at_the_stop');
    expect(stored?.delivery.state).toBe('delivered');
    const later = await startBff(stack.sandbox.url, {
      store,
      config,
      env,
      sessionSecret: stack.sessionSecret,
      bffOptions: { webhooks: { intervalMs: 25, now: () => Date.now() + 60 * 60 * 1000 } },
    });
    try {
      await later.bff.webhookSender.deliverDue();
      expect(partner.paths).toHaveLength(1);
    } finally {
      await later.server.close();
    }
    // Checked last: a write that failed on a closed store would have been logged by now.
    expect([...errorLines(stack.logs), ...errorLines(later.logs)]).toEqual([]);
  }, 30_000);
});

describe('the webhook sender at a stop', () => {
  let partner: HoldingServer | undefined;
  afterAll(async () => {
    await partner?.close();
  });

  it('finishes the attempt under way, attempts nothing more, and gives the rest of its batch back due now', async () => {
    partner = await startHoldingServer();
    const store = createMemoryStore();
    const queue = createWebhookQueue(store);
    const widget = {
      config: { id: 'shop', webhookUrl: `${partner.url}/hooks/esim` },
      webhookSecret: WEBHOOK_SECRET,
    } as unknown as WidgetRuntime;
    const logs: string[] = [];
    const sender = createWebhookSender({
      queue,
      store,
      widgets: new Map([['shop', widget]]),
      logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
      retryForMs: 24 * 60 * 60 * 1000,
      intervalMs: 25,
    });
    const now = Date.now();
    for (const id of ['evt_probe', 'evt_behind']) {
      await queue.enqueue(pendingDelivery(id, 'shop', now));
    }
    sender.start();
    // The batch's first delivery goes alone (the endpoint's probe): the other waits behind it.
    await eventually(async () => (partner?.paths.length === 1 ? true : undefined));
    const stopping = sender.close();
    partner.answer(200);
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(partner.paths).toHaveLength(1);
    const [first, second] = await Promise.all([queue.read('evt_probe'), queue.read('evt_behind')]);
    expect(first?.delivery.state).toBe('delivered');
    expect(second?.delivery).toMatchObject({ state: 'pending', attempts: 0 });
    // Due at once for the next start (or another instance), not held until the batch's lease ran out.
    const claimed = await queue.claim(Date.now(), { limit: 10, perPartition: 10, leaseMs: 1_000 });
    expect(claimed.map((stored) => stored.delivery.id)).toEqual(['evt_behind']);
    expect(errorLines(logs)).toEqual([]);
  });
});

/** The test config's one widget on `url`, an upstream that takes every request and answers none within the test. */
function onHeldUpstream(url: string, stopSeconds?: number): BffConfigInput {
  const base = testConfig(url);
  return withUpstream(
    {
      ...base,
      ...(stopSeconds === undefined ? {} : { server: { ...base.server, stopSeconds } }),
      widgets: base.widgets.filter((widget) => widget.id === 'shop'),
    },
    UNANSWERED_UPSTREAM,
  );
}

describe('a stop with a run that does not end', () => {
  let upstream: HoldingServer | undefined;
  afterAll(async () => {
    await upstream?.close();
  });

  it('waits no longer than its bound, names what still ran, and closes', async () => {
    upstream = await startHoldingServer();
    const running = await startBff(upstream.url, {
      sessionSecret: randomBytes(32),
      config: (url) => onHeldUpstream(url),
      bffOptions: { stopWaitMs: 300 },
    });
    // The reconciliation's pass at the start reads the account's orders: it waits on the upstream.
    await eventually(async () =>
      upstream?.paths.some((path) => path.includes('/orders')) === true ? true : undefined,
    );
    const startedAt = Date.now();
    await running.server.close();
    const tookMs = Date.now() - startedAt;
    expect(tookMs).toBeGreaterThanOrEqual(300);
    expect(tookMs).toBeLessThan(3_000);
    const warning = running.logs.find((line) => line.includes('background work still running at the stop'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning as string)).toMatchObject({
      level: 'warn',
      running: expect.arrayContaining(['order reconciliation']),
      waitedMs: 300,
    });
  }, 20_000);

  it('shares the config’s stop time: a held request cut at 40 %, the background waited for half', async () => {
    const held = await startHoldingServer();
    const running = await startBff(held.url, {
      sessionSecret: randomBytes(32),
      config: (url) => onHeldUpstream(url, 2),
    });
    // A traveller's first read: the widget's start needs the catalog, which waits on the upstream.
    let answeredAt = 0;
    const start = fetch(`${running.server.url}/v1/widgets/shop/start`, { headers: { Origin: SHOP_ORIGIN } })
      .then(
        () => 'answered',
        () => 'cut',
      )
      .finally(() => {
        answeredAt = Date.now();
      });
    // The catalog's first reads wait on the upstream (the start waits on them); the request is in by then.
    await eventually(async () => (held.paths.includes('/account') ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const startedAt = Date.now();
    await running.server.close();
    const tookMs = Date.now() - startedAt;
    expect(await start).toBe('cut');
    // 2 s to stop: 0.8 s for the requests under way, then 1 s for the background work (not 4 s and 5 s).
    expect(answeredAt - startedAt).toBeGreaterThanOrEqual(750);
    expect(answeredAt - startedAt).toBeLessThan(1_500);
    expect(tookMs).toBeLessThan(2_500);
    const warning = running.logs.find((line) => line.includes('background work still running at the stop'));
    expect(JSON.parse(warning as string)).toMatchObject({ level: 'warn', waitedMs: 1_000 });
    await held.close();
  }, 20_000);
});
