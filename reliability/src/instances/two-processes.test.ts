/**
 * Two BFF processes behind a pretend load balancer, sharing a real redis-server (then a Redis Cluster of three
 * primaries with a replica each) and the session secret: a checkout created on one is confirmed on the other; rate
 * limits hold across both; an instance killed with SIGKILL while it places an order loses nothing — the other
 * resumes the checkout and exactly one order exists.
 */
import { randomBytes } from 'node:crypto';
import type { BffConfigInput } from '@esim-embed/bff';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, buildBffBundle, startBffProcess } from '../harness/bff-process';
import {
  call,
  eventually,
  openCheckoutOnPage,
  openWidget,
  PARTNER_SECRET,
  SHOP_ORIGIN,
  TEST_ENV,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { killedInstanceConfig } from '../harness/killed-instance-config';
import { findSecrets } from '../harness/secret-scan';
import { SHARED_REDIS_KINDS, type SharedRedis, startSharedRedis } from '../harness/shared-redis';
import { upstreamOrders } from '../harness/upstream-orders';

/** How long the sandbox holds the order request: instance one is killed inside this window. */
const PLACEMENT_LATENCY_MS = 1_500;

let redis: SharedRedis;
let sandbox: RunningSandbox;
let one: BffProcess;
let two: BffProcess;
const sessionSecret = randomBytes(32).toString('base64url');
const tightPartnerSecret = `tight-partner-${randomBytes(16).toString('hex')}`;
const figures: Figure[] = [];
const seenSecrets = new Map<string, string>();

function config(sandboxUrl: string): BffConfigInput {
  const base = killedInstanceConfig(sandboxUrl, PLACEMENT_LATENCY_MS);
  const shop = base.widgets[0] as (typeof base.widgets)[number];
  return {
    ...base,
    // The guessing test speaks as clients behind a proxy (X-Forwarded-For); other requests carry no header and
    // are counted by their socket.
    trustedProxyHops: 1,
    widgets: [
      ...base.widgets.map((widget) => ({ ...widget, limits: { sessionsPerIpPerMinute: 1_000 } })),
      { ...shop, id: 'tight', limits: { sessionsPerIpPerMinute: 6, requestsPerSessionPerMinute: 8 } },
      // A partner of its own, with a budget of 4 writes a minute.
      {
        ...shop,
        id: 'tight-partner',
        partnerSecretEnv: 'TIGHT_PARTNER_SECRET',
        limits: { partnerWritesPerMinute: 4 },
      },
    ],
  };
}

describe.each(SHARED_REDIS_KINDS)('two BFF processes on $name', ({ kind, name }) => {
  beforeAll(async () => {
    // Built instances, as production runs them (the bundle starts in a fraction of the sources' time).
    buildBffBundle();
    redis = await startSharedRedis(kind);
    sandbox = await startSandbox({
      stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
      offerCount: 200,
      faultInjection: true,
    });
    const env = {
      ...TEST_ENV,
      ESIM_BFF_SESSION_SECRET: sessionSecret,
      TIGHT_PARTNER_SECRET: tightPartnerSecret,
      ...redis.env,
    };
    [one, two] = await Promise.all([
      startBffProcess({ config: config(sandbox.url), env, built: true }),
      startBffProcess({ config: config(sandbox.url), env, built: true }),
    ]);
    seenSecrets.set('upstream API key', SANDBOX_KEYS.globetrotter);
    seenSecrets.set('partner secret', PARTNER_SECRET);
    seenSecrets.set('session-signing secret', sessionSecret);
    seenSecrets.set('tight partner secret', tightPartnerSecret);
  }, 60_000);
  afterAll(async () => {
    recordFigures(`two BFF processes on ${name}`, figures.splice(0));
    await Promise.all([one?.kill(), two?.kill()]);
    await sandbox?.close();
    await redis?.stop();
  });

  /** The upstream orders under a checkout's externalRef, read from the sandbox itself. */
  const ordersOf = async (checkoutId: string) =>
    (await upstreamOrders(sandbox.url)).filter((order) => order.externalRef === checkoutId);

  /** A `partner_confirm` checkout made through instance `on`, its token usable on both. */
  async function checkoutOn(on: BffProcess) {
    const page = await openWidget(on.url, 'shop-pay');
    seenSecrets.set(`session token ${seenSecrets.size}`, page.token);
    const checkout = await openCheckoutOnPage(page);
    seenSecrets.set(`client secret ${checkout.id}`, checkout.clientSecret);
    const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${page.token}` };
    const status = (instance: BffProcess) =>
      call(instance.url, `/v1/checkouts/${checkout.id}`, {
        headers: { ...auth, [CHECKOUT_SECRET_HEADER]: checkout.clientSecret },
      });
    const confirm = (instance: BffProcess) =>
      call(instance.url, `/v1/partner/checkouts/${checkout.id}/confirm`, {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
    return { checkout, status, confirm };
  }

  describe('two BFF processes sharing Redis', () => {
    it('confirms on one process a checkout created on the other, once', async () => {
      const { checkout, status, confirm } = await checkoutOn(one);
      expect((await status(two)).body.data.status).toBe('awaiting_payment');
      const confirms = await Promise.all([confirm(two), confirm(one), confirm(two)]);
      for (const answer of confirms) expect(answer.status).toBe(200);
      const ready = await eventually(async () => {
        const answer = await status(one);
        return answer.body.data.status === 'ready' ? answer.body.data : undefined;
      });
      expect(ready.id).toBe(checkout.id);
      expect(await ordersOf(checkout.id)).toHaveLength(1);
      figures.push(['created on 1, confirmed on 2 (3 racing confirms)', 'ready, 1 upstream order']);
    });

    it('holds the rate limits across both processes', async () => {
      const sessions: number[] = [];
      const tokens: string[] = [];
      for (let index = 0; index < 8; index += 1) {
        const answer = await call((index % 2 === 0 ? one : two).url, '/v1/sessions', {
          method: 'POST',
          headers: { Origin: SHOP_ORIGIN },
          body: { widgetId: 'tight' },
        });
        sessions.push(answer.status);
        if (answer.status === 201) tokens.push(answer.body.data.token);
      }
      expect(sessions.filter((status) => status === 201)).toHaveLength(6);
      expect(sessions.slice(6)).toEqual([429, 429]);
      figures.push(['sessions per IP (limit 6), 8 alternating', sessions.join(' ')]);

      const tight = tokens[0] as string;
      seenSecrets.set('tight session token', tight);
      const requests: number[] = [];
      for (let index = 0; index < 12; index += 1) {
        const answer = await call((index % 2 === 0 ? one : two).url, '/v1/destinations', {
          headers: { Origin: SHOP_ORIGIN, Authorization: `Bearer ${tight}` },
        });
        requests.push(answer.status);
      }
      const allowed = requests.filter((status) => status === 200).length;
      expect(allowed).toBeGreaterThan(0);
      expect(allowed).toBeLessThanOrEqual(8);
      expect(requests.slice(allowed)).toEqual(Array(12 - allowed).fill(429));
      figures.push(['requests per session (limit 8), 12 alternating', requests.join(' ')]);

      // A wrong partner secret is limited per client IP: alternating instances does not double its tries, and
      // neither does a fresh IPv6 address of the same /64 for every try.
      const tries: number[] = [];
      for (let index = 0; index < 24; index += 1) {
        const answer = await call(
          (index % 2 === 0 ? one : two).url,
          '/v1/partner/checkouts/chk_guessing00000',
          {
            headers: {
              [PARTNER_SECRET_HEADER]: 'stale-partner-secret',
              'X-Forwarded-For': `2001:db8:7:7::${index + 1}`,
            },
          },
        );
        tries.push(answer.status);
      }
      const refusedTries = tries.filter((status) => status === 401).length;
      expect(refusedTries, tries.join(' ')).toBe(20);
      expect(tries.slice(refusedTries), tries.join(' ')).toEqual(Array(24 - refusedTries).fill(429));
      // The secret is compared first: from that same /64, the right secret is answered on both (the checkout does
      // not exist: 404, not 401 or 429).
      const right = (from: string) =>
        Promise.all(
          [one, two].map(async (instance) => {
            const answer = await call(instance.url, '/v1/partner/checkouts/chk_guessing00000', {
              headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'X-Forwarded-For': from },
            });
            return answer.status;
          }),
        );
      expect(await right('2001:db8:7:7:ffff::1')).toEqual([404, 404]);

      // A partner's writes have one budget on both processes.
      const writes: number[] = [];
      for (let index = 0; index < 6; index += 1) {
        const answer = await call(
          (index % 2 === 0 ? one : two).url,
          '/v1/partner/checkouts/chk_unknown000000/cancel',
          {
            method: 'POST',
            headers: { [PARTNER_SECRET_HEADER]: tightPartnerSecret },
          },
        );
        writes.push(answer.status);
      }
      expect(writes).toEqual([404, 404, 404, 404, 429, 429]);
      figures.push(['partner writes (limit 4), 6 alternating', writes.join(' ')]);
      figures.push([
        'one wrong partner secret, 24 alternating from one IPv6 /64, then the right secret on each',
        `${refusedTries}×401 then ${24 - refusedTries}×429; right secret 404 on both (answered)`,
      ]);
    });

    it('loses nothing when a process is killed while it places an order: the other resumes it, one order', async () => {
      const { checkout, status, confirm } = await checkoutOn(one);
      await sandbox.control.setFaults([
        { kind: 'latency', method: 'POST', path: '/orders', latencyMs: PLACEMENT_LATENCY_MS, times: 1 },
      ]);
      const pending = confirm(one).catch((error: unknown) => error);
      // The order request reached the upstream (the rule retired): instance one now dies mid-placement.
      await eventually(async () => ((await sandbox.control.state()).faults.length === 0 ? true : undefined));
      await one.kill('SIGKILL');
      const killedAt = Date.now();
      expect(await pending).toBeInstanceOf(Error);
      // The partner's server retries its confirm on the surviving instance: accepted, the sale is not lost.
      const retried = await confirm(two);
      expect(retried.status).toBe(200);
      expect(['placing', 'provisioning', 'ready']).toContain(retried.body.data.status);
      // Polled once a second, as the widget does (faster polling would spend the session's request budget).
      const statuses = new Set<string>();
      let ready: { id: string; status: string } | undefined;
      for (const deadline = Date.now() + 90_000; ready === undefined && Date.now() < deadline; ) {
        const answer = await status(two);
        expect(answer.status).toBe(200);
        statuses.add(answer.body.data.status);
        if (answer.body.data.status === 'ready') ready = answer.body.data;
        else await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      expect([...statuses].filter((value) => !['placing', 'provisioning', 'ready'].includes(value))).toEqual(
        [],
      );
      if (ready === undefined) throw new Error(`checkout ${checkout.id} was not resumed within 90 s`);
      expect(ready.id).toBe(checkout.id);
      expect(await ordersOf(checkout.id)).toHaveLength(1);
      // The dead worker's placement lease (2.5 s here, no longer renewed) runs out, and the next poll places the order.
      const resumedAfter = (Date.now() - killedAt) / 1000;
      expect(resumedAfter).toBeLessThan(15);
      figures.push([
        'process 1 SIGKILLed mid-placement',
        `resumed by process 2 after ${resumedAfter.toFixed(1)} s (the placement lease), 1 upstream order`,
      ]);
    }, 120_000);

    it('wrote no secret to either process’s logs', () => {
      const logs = [...one.logs, ...two.logs];
      expect(logs.length).toBeGreaterThan(20);
      expect(findSecrets(logs, seenSecrets)).toEqual([]);
      figures.push([
        'log lines of both processes searched',
        `${logs.length} lines, ${seenSecrets.size} secrets, 0 found`,
      ]);
    });
  });
});
