/**
 * Issue 12's "done when": two built BFF processes (the esbuild bundle) on a real redis-server in front of the sandbox, a `direct` widget
 * (and the same on a Redis Cluster of three primaries with a replica each).
 * Process one is SIGKILLed while the sandbox holds its `POST /orders` in flight. The traveller's retry of
 * `POST /v1/checkouts` with the same `Idempotency-Key` on process two — retrying on 409 as the widget does,
 * honouring `Retry-After` — gets that very checkout (201, its client secret) within 10 seconds; the checkout
 * reaches `ready` and its installation is readable; and after a reconciliation pass every upstream order of the
 * account belongs to a checkout the partner API can read.
 */
import { randomBytes } from 'node:crypto';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, buildBffBundle, startBffProcess } from '../harness/bff-process';
import {
  type Answer,
  call,
  eventually,
  newKey,
  openWidget,
  PARTNER_SECRET,
  quoteOnPage,
  SHOP_ORIGIN,
  TEST_ENV,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { killedInstanceConfig, TAKEOVER_AFTER_MS } from '../harness/killed-instance-config';
import { SHARED_REDIS_KINDS, type SharedRedis, startSharedRedis } from '../harness/shared-redis';
import { upstreamOrders } from '../harness/upstream-orders';

/**
 * How long the sandbox holds the order request: process one is killed inside this window, and the order is placed
 * before its leases run out (after 70 % of them at the earliest: the heartbeat renews them every 30 %).
 */
const ORDER_LATENCY_MS = 1_500;

let redis: SharedRedis;
let sandbox: RunningSandbox;
let one: BffProcess;
let two: BffProcess;
const env = { ...TEST_ENV, ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url') };
const figures: Figure[] = [];

// Built instances, as production runs them: the esbuild bundle, not the sources.
const startInstance = () =>
  startBffProcess({
    config: killedInstanceConfig(sandbox.url, ORDER_LATENCY_MS),
    env: { ...env, ...redis.env },
    built: true,
  });

describe.each(SHARED_REDIS_KINDS)('two processes on $name', ({ kind, name }) => {
  beforeAll(async () => {
    buildBffBundle();
    redis = await startSharedRedis(kind);
    sandbox = await startSandbox({
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
      offerCount: 100,
      faultInjection: true,
    });
    [one, two] = await Promise.all([startInstance(), startInstance()]);
  }, 60_000);
  afterAll(async () => {
    recordFigures(`an instance killed mid-checkout, on ${name}`, figures.splice(0));
    await Promise.all([one?.kill(), two?.kill()]);
    await sandbox?.close();
    await redis?.stop();
  });

  describe('a BFF process killed while it places a direct checkout’s order', () => {
    it('hands the traveller’s retry the same checkout on the other process within 10 s, then ready', async () => {
      const page = await openWidget(one.url, 'shop');
      const body = { quoteId: await quoteOnPage(page), locale: 'en', termsAccepted: true };
      const key = newKey();
      const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}` };
      const ordersBefore = (await upstreamOrders(sandbox.url)).length;

      await sandbox.control.setFaults([
        { kind: 'latency', method: 'POST', path: '/orders', latencyMs: ORDER_LATENCY_MS, times: 1 },
      ]);
      const lost = page
        .post('/v1/checkouts', body, { 'Idempotency-Key': key })
        .catch((error: unknown) => error);
      // The order request reached the sandbox (the rule retired): process one dies with it in flight.
      await eventually(async () => ((await sandbox.control.state()).faults.length === 0 ? true : undefined));
      await one.kill('SIGKILL');
      const killedAt = Date.now();
      expect(await lost).toBeInstanceOf(Error);

      // The traveller retries on the surviving process, as the widget does: on 409, after Retry-After.
      const conflicts: string[] = [];
      let created: Answer | undefined;
      while (created === undefined) {
        const answer = await call(two.url, '/v1/checkouts', {
          method: 'POST',
          headers: { ...auth, 'Idempotency-Key': key },
          body,
        });
        if (answer.status !== 409) {
          created = answer;
          break;
        }
        expect(answer.body.error).toMatchObject({
          code: 'idempotency_conflict',
          params: { reason: 'in_progress' },
        });
        const retryAfter = Number(answer.headers.get('retry-after'));
        conflicts.push(`409 (Retry-After ${retryAfter})`);
        // What is left of the dead holder's lease: the configured takeover, not the 5 s default.
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil(TAKEOVER_AFTER_MS / 1000));
        expect(Date.now() + retryAfter * 1000 - killedAt).toBeLessThan(10_000);
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      }
      const secondsToCheckout = (Date.now() - killedAt) / 1000;
      expect(created.status).toBe(201);
      expect(secondsToCheckout).toBeLessThan(10);
      const checkout = created.body.data as { id: string; clientSecret: string; status: string };
      expect(checkout.clientSecret).toMatch(/^cs_/);
      expect(['placing', 'provisioning', 'ready']).toContain(checkout.status);

      // Polled once a second, as the widget does.
      let status = checkout.status;
      while (status !== 'ready') {
        expect(Date.now() - killedAt).toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const answer = await call(two.url, `/v1/checkouts/${checkout.id}`, {
          headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
        });
        expect(answer.status).toBe(200);
        status = answer.body.data.status;
        expect(['placing', 'provisioning', 'ready']).toContain(status);
      }
      const secondsToReady = (Date.now() - killedAt) / 1000;
      const installation = await call(two.url, `/v1/checkouts/${checkout.id}/installation`, {
        headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
      });
      expect(installation.status).toBe(200);
      expect(installation.body.data.lpa).toMatch(/^LPA:/);

      // One order more upstream, and it is the one process one sent: placed under this very checkout's id.
      const orders = await upstreamOrders(sandbox.url);
      expect(orders).toHaveLength(ordersBefore + 1);
      expect(orders.filter((order) => order.externalRef === checkout.id)).toHaveLength(1);
      figures.push(
        ['retries before the checkout', conflicts.join(', ') || 'none'],
        ['SIGKILL → 201 with the same checkout', `${secondsToCheckout.toFixed(1)} s`],
        ['SIGKILL → ready (polled every second)', `${secondsToReady.toFixed(1)} s`],
      );
    }, 60_000);

    it('leaves no upstream order without a checkout the partner can read, after a reconciliation pass', async () => {
      // Process one comes back (as an orchestrator restarts it); its start-up pass reconciles the account.
      one = await startInstance();
      await eventually(async () =>
        one.logs.some((line) => line.includes('"message":"upstream orders reconciled"')) ? true : undefined,
      );
      const orders = await upstreamOrders(sandbox.url);
      expect(orders.length).toBeGreaterThan(0);
      for (const order of orders) {
        const read = await call(two.url, `/v1/partner/checkouts/${encodeURIComponent(order.externalRef)}`, {
          headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
        });
        expect(read.status, `order ${order.id} under ${order.externalRef}`).toBe(200);
        expect(read.body.data.order?.id).toBe(order.id);
      }
      expect(
        [...one.logs, ...two.logs].some((line) => line.includes('upstream order without a checkout')),
      ).toBe(false);
      figures.push(['upstream orders after reconciliation', `${orders.length}, each its checkout's`]);
    }, 60_000);
  });
});
