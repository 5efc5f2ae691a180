/**
 * Money writes held by Redis's replicas (`redis.waitForReplicas`), on real `redis-server` processes: a BFF on a
 * primary with one replica sells while the replica is up; with the replica stopped, a purchase is refused with
 * `503 store_unavailable` before any upstream order is placed, and the traveller's retry is served once the replica
 * is back — one order. On a cluster, `WAIT` goes to the primary that holds the key: a primary whose replica is gone
 * refuses, the others confirm.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import type { Plan } from '@esim-embed/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, startRedisServer } from '../../testing/redis-server';
import { eventually, newKey, openWidget, startBff } from '../../testing/stack';
import { markerKeyFor, replicaWaitFromEnvironment } from './redis-replica-wait';
import { createRedisStore } from './redis-store';
import { RedisSettingError } from './redis-target';
import { StoreUnavailableError } from './store';

/** Generous: a healthy replica answers in a millisecond, a busy test machine may take far longer. */
const WAIT = { replicas: 1, timeoutMs: 1_000 };

/** Polls `check` until it is true, or fails naming `what` (a server's own pace, not the code's timers). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether the server on `port` counts `replicas` connected replicas, or is a replica in sync. */
async function replication(port: number): Promise<string> {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  try {
    return await redis.info('replication');
  } finally {
    redis.disconnect();
  }
}

describe('the replica wait setting', () => {
  it('is off by default, read from the config, overridden by the environment', () => {
    expect(replicaWaitFromEnvironment({})).toBeUndefined();
    expect(replicaWaitFromEnvironment({}, { replicas: 2, timeoutMs: 100 })).toEqual({
      replicas: 2,
      timeoutMs: 100,
    });
    expect(replicaWaitFromEnvironment({ ESIM_BFF_REDIS_WAIT_REPLICAS: '1' })).toEqual({
      replicas: 1,
      timeoutMs: 250,
    });
    expect(
      replicaWaitFromEnvironment({ ESIM_BFF_REDIS_WAIT_REPLICAS: '0' }, { replicas: 2, timeoutMs: 100 }),
    ).toBeUndefined();
    expect(() => replicaWaitFromEnvironment({ ESIM_BFF_REDIS_WAIT_TIMEOUT_MS: 'soon' })).toThrow(
      RedisSettingError,
    );
    expect(() => replicaWaitFromEnvironment({ ESIM_BFF_REDIS_WAIT_REPLICAS: '-1' })).toThrow(
      /ESIM_BFF_REDIS_WAIT_REPLICAS/,
    );
  });

  it('marks a write in the slot of its key', () => {
    expect(markerKeyFor('esim-bff:checkout:chk_1', 'esim-bff:')).toBe(
      'esim-bff:replicated-marker:{esim-bff:checkout:chk_1}',
    );
    expect(markerKeyFor('esim-bff:queue:{webhooks}:due', 'esim-bff:')).toBe(
      'esim-bff:replicated-marker:{webhooks}',
    );
    expect(markerKeyFor('odd}key', '')).toBeNull();
  });
});

describe('a BFF whose money writes wait for a replica', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 } });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const ordersPlaced = async () => (await sandbox.control.state()).environments.test?.orders ?? 0;

  it('refuses a purchase before its upstream order while the replica is away, and serves its retry after', async () => {
    const primary = await startRedisServer();
    const replica = await startRedisServer({ replicaOf: primary.port });
    const store = createRedisStore({
      url: primary.url,
      keyPrefix: `wait-${randomBytes(4).toString('hex')}:`,
      waitForReplicas: WAIT,
      // Two seconds per command: on a busy machine a write held up past half the default is refused as late (503).
      commandTimeoutMs: 2_000,
    });
    const running = await startBff(sandbox.url, { sessionSecret: randomBytes(32), store });
    try {
      await until('the replica is in sync', async () =>
        (await replication(replica.port)).includes('master_link_status:up'),
      );
      const page = await openWidget(running.server.url, 'shop');
      const destinations = await page.get('/v1/destinations?locale=en');
      const country = (destinations.body.data as { code: string; kind: string }[]).find(
        (destination) => destination.kind === 'country',
      );
      const plans = await page.get(`/v1/destinations/${country?.code}/plans`);
      const offerId = (plans.body.data as Plan[])[0]?.offerId;
      const purchase = async () => {
        const quote = await page.post('/v1/quotes', { offerId }, { 'Idempotency-Key': newKey() });
        expect(quote.status).toBe(201);
        return { body: { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true }, key: newKey() };
      };

      // Served while the replica holds every write.
      const first = await purchase();
      const served = await page.post('/v1/checkouts', first.body, { 'Idempotency-Key': first.key });
      expect(served.status).toBe(201);
      const ordersBefore = await ordersPlaced();
      expect(ordersBefore).toBeGreaterThanOrEqual(1);

      // The replica gone: the money write is not durable, and no order is placed under it.
      const second = await purchase();
      await replica.stop();
      const refused = await page.post('/v1/checkouts', second.body, { 'Idempotency-Key': second.key });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('store_unavailable');
      expect(await ordersPlaced()).toBe(ordersBefore);

      // The replica back: the traveller's retry (same key, same body) is served, with one order.
      await replica.restart();
      await until('the replica is in sync again', async () =>
        (await replication(replica.port)).includes('master_link_status:up'),
      );
      const retried = await eventually(async () => {
        const answer = await page.post('/v1/checkouts', second.body, { 'Idempotency-Key': second.key });
        // A retry within the refused create's lease is told to wait (409 in_progress): the widget waits too.
        return answer.status === 201 ? answer : undefined;
      }, 20_000);
      const checkoutId = retried.body.data.id as string;
      const orders = await running.bff.widgets.get('shop')?.upstream.findOrdersByExternalRef(checkoutId);
      expect(orders).toHaveLength(1);
      expect(await ordersPlaced()).toBe(ordersBefore + 1);
    } finally {
      await running.server.close();
      await store.close();
      await replica.stop();
      await primary.stop();
    }
  }, 60_000);
});

describe('a cluster whose money writes wait for a replica', () => {
  it('waits on the primary that holds the key: refused where its replica is gone, confirmed elsewhere', async () => {
    const cluster = await startRedisCluster();
    const store = createRedisStore({
      target: cluster.target,
      keyPrefix: 'wait:',
      waitForReplicas: WAIT,
      commandTimeoutMs: 2_000,
    });
    try {
      // One key on each primary, whose replica is in sync.
      const primaries = await cluster.primaries();
      for (const primary of primaries) {
        await until(`the replica of :${primary.port} is in sync`, async () =>
          /slave0:.*state=online/.test(await replication(primary.port)),
        );
      }
      const keys = new Map<number, string>();
      for (let index = 0; keys.size < primaries.length && index < 1_000; index += 1) {
        const name = `checkout:chk_${index}`;
        const port = await cluster.primaryOf(await cluster.slotOf(`wait:${name}`));
        if (!keys.has(port)) keys.set(port, name);
      }
      for (const name of keys.values()) {
        expect(await store.insert(name, 'held', 60_000)).toBe(true);
        await store.confirmReplicated?.(name);
      }

      // The replica of one primary killed: that primary's writes are not durable any more.
      const [lostPort, lostKey] = [...keys.entries()][0] as [number, string];
      const lostId = primaries.find((primary) => primary.port === lostPort)?.id as string;
      const nodes = (await cluster.cli(lostPort, 'CLUSTER', 'NODES')).trim().split('\n');
      const replicaPort = Number(
        nodes
          .map((line) => line.split(' '))
          .find((fields) => fields[3] === lostId)?.[1]
          ?.split(':')[1]
          ?.split('@')[0],
      );
      await cluster.nodes.find((node) => node.port === replicaPort)?.kill();

      expect(await store.compareAndSet(lostKey, 1, 'changed', 60_000)).toBe(true);
      await expect(store.confirmReplicated?.(lostKey)).rejects.toBeInstanceOf(StoreUnavailableError);
      for (const [port, name] of keys) {
        if (port === lostPort) continue;
        expect(await store.compareAndSet(name, 1, 'changed', 60_000)).toBe(true);
        await store.confirmReplicated?.(name);
      }
    } finally {
      await store.close();
      await cluster.stop();
    }
  }, 60_000);
});
