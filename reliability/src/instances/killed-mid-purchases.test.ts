/**
 * Issue 23's "done when": the BFF's state outlives a `SIGKILL`. Built BFF processes (the esbuild bundle) in front
 * of the sandbox sell in `direct` and `partner_confirm` widgets; one process is SIGKILLed while purchases are at
 * every stage — orders in flight upstream, checkouts provisioning, checkouts awaiting the partner's payment,
 * sales ready with manage links — and started again on the same state. Then every checkout goes on to `ready`
 * (the traveller's retry with the same `Idempotency-Key`, the partner's confirm), the partner API reads every
 * sale and asks for its refund, every manage link opens, the webhooks pending at the kill (the partner's endpoint
 * was down) are delivered, every upstream order belongs to a checkout, and no `order.unmatched` webhook is sent.
 *
 * Run for one instance on the embedded store (the default: its data directory kept across the restart) and for
 * two instances on one Redis (the other instance keeps serving while the killed one is away), and for two instances
 * on a Redis Cluster of three primaries with a replica each (the keys of one purchase spread over its primaries).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BffConfigInput } from '@esim-embed/bff';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import {
  CHECKOUT_SECRET_HEADER,
  MANAGE_TOKEN_HEADER,
  PARTNER_SECRET_HEADER,
  WEBHOOK_ID_HEADER,
} from '@esim-embed/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, buildBffBundle, startBffProcess } from '../harness/bff-process';
import {
  type Answer,
  call,
  eventually,
  newKey,
  PARTNER_SECRET,
  type RunningRedis,
  type RunningRedisCluster,
  SHOP_ORIGIN,
  startRedisCluster,
  startRedisServer,
  startWebhookReceiver,
  TEST_ENV,
  testConfig,
  type WebhookReceiver,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { upstreamOrders } from '../harness/upstream-orders';

/**
 * How long a dead instance's work (a create under its `Idempotency-Key`, a placement) stays its own: shorter than
 * the production default (5 s), so that the takeover comes sooner; the same mechanism either way.
 */
const TAKEOVER_AFTER_MS = 2_500;
/**
 * How long the sandbox holds the orders in flight: the process is killed inside this window, and the orders are
 * placed before its leases run out (after 70 % of them at the earliest: the heartbeat renews them every 30 %).
 */
const ORDER_LATENCY_MS = 1_500;
/** How long the sandbox takes to provision an eSIM: the checkouts placed just before the kill are mid-way. */
const PROVISIONING_MS = 1_500;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

interface Scenario {
  name: string;
  store: 'embedded' | 'redis' | 'cluster';
  instances: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'one instance on the embedded store', store: 'embedded', instances: 1 },
  { name: 'two instances on one Redis', store: 'redis', instances: 2 },
  { name: 'two instances on a Redis Cluster', store: 'cluster', instances: 2 },
];

/** One purchase the test follows through the kill. */
interface Purchase {
  stage: 'ready' | 'awaiting_payment' | 'provisioning' | 'in flight';
  widgetId: 'shop' | 'shop-pay';
  token: string;
  body: { quoteId: string; locale: string; termsAccepted: boolean };
  idempotencyKey: string;
  id?: string;
  clientSecret?: string;
  esimId?: string;
  manageToken?: string;
}

beforeAll(() => buildBffBundle(), 60_000);

describe.each(SCENARIOS)('$name, one process SIGKILLed in the middle of purchases', (scenario) => {
  let sandbox: RunningSandbox;
  let receiver: WebhookReceiver;
  let redis: RunningRedis | undefined;
  let cluster: RunningRedisCluster | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-killed-mid-purchases-'));
  const processes: BffProcess[] = [];
  const env = {
    ...TEST_ENV,
    ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url'),
    TEST_WEBHOOK_SECRET: WEBHOOK_SECRET,
  };
  const figures: Figure[] = [];

  function config(sandboxUrl: string): BffConfigInput {
    // A webhook endpoint that failed is probed again after 1 s, 2 s, 4 s … (not 10 s, 20 s, 40 s …).
    const base = {
      ...testConfig(sandboxUrl, { checkoutWatchSeconds: 1 }),
      takeoverAfterMs: TAKEOVER_AFTER_MS,
      webhookBackoffSeconds: 1,
    };
    const upstream = {
      baseUrl: sandboxUrl,
      apiKeyEnv: 'TEST_UPSTREAM_KEY',
      timeoutMs: ORDER_LATENCY_MS + 3_000,
      maxRetries: 1,
    };
    return {
      ...base,
      widgets: base.widgets.map((widget) => ({
        ...widget,
        upstream,
        webhookUrl: receiver.url,
        webhookSecretEnv: 'TEST_WEBHOOK_SECRET',
      })),
    };
  }

  // Built instances, as production runs them; the embedded store's process always on the same data directory.
  const startInstance = () =>
    startBffProcess({
      config: config(sandbox.url),
      env,
      built: true,
      ...(redis !== undefined ? { redisUrl: redis.url } : cluster !== undefined ? {} : { dataDir }),
      ...(cluster === undefined ? {} : { env: { ...env, ESIM_BFF_REDIS_CLUSTER_NODES: cluster.seeds } }),
    });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    if (scenario.store === 'redis') redis = await startRedisServer();
    if (scenario.store === 'cluster') cluster = await startRedisCluster();
    sandbox = await startSandbox({
      stepDelaysMs: { provisioning: PROVISIONING_MS, delivery: 0, completion: 0 },
      offerCount: 100,
      faultInjection: true,
    });
    for (let index = 0; index < scenario.instances; index += 1) processes.push(await startInstance());
  }, 60_000);
  afterAll(async () => {
    if (figures.length > 0) recordFigures(`killed mid-purchases: ${scenario.name}`, figures);
    await Promise.all(processes.map((process) => process.kill()));
    await sandbox?.close();
    await receiver?.close();
    await redis?.stop();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A traveller's call, as the widget makes it, to one process. */
  const travellerCall = (
    url: string,
    purchase: Purchase,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    call(url, path, {
      ...init,
      headers: {
        Origin: SHOP_ORIGIN,
        Authorization: `Bearer ${purchase.token}`,
        ...(purchase.clientSecret === undefined ? {} : { [CHECKOUT_SECRET_HEADER]: purchase.clientSecret }),
        ...init.headers,
      },
    });
  const partner = (url: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    call(url, path, { ...init, headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET } });

  /** A session and a quote for one purchase (the checkout is created by the caller). */
  async function prepare(url: string, stage: Purchase['stage'], widgetId: Purchase['widgetId']) {
    const session = await call(url, '/v1/sessions', {
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN },
      body: { widgetId },
    });
    expect(session.status, session.text).toBe(201);
    const purchase: Purchase = {
      stage,
      widgetId,
      token: session.body.data.token,
      idempotencyKey: newKey(),
      body: { quoteId: '', locale: 'en', termsAccepted: true },
    };
    const destinations = await travellerCall(url, purchase, '/v1/destinations');
    const plans = await travellerCall(
      url,
      purchase,
      `/v1/destinations/${destinations.body.data[0].code}/plans`,
    );
    const quote = await travellerCall(url, purchase, '/v1/quotes', {
      method: 'POST',
      body: { offerId: plans.body.data[0].offerId },
      headers: { 'Idempotency-Key': newKey() },
    });
    expect(quote.status, quote.text).toBe(201);
    purchase.body.quoteId = quote.body.data.id;
    return purchase;
  }

  /** `POST /v1/checkouts` for a prepared purchase. */
  const checkout = (url: string, purchase: Purchase) =>
    travellerCall(url, purchase, '/v1/checkouts', {
      method: 'POST',
      body: purchase.body,
      headers: { 'Idempotency-Key': purchase.idempotencyKey },
    });

  function created(purchase: Purchase, answer: Answer) {
    expect(answer.status, answer.text).toBe(201);
    purchase.id = answer.body.data.id;
    purchase.clientSecret = answer.body.data.clientSecret;
  }

  /** Poll the checkout as the widget does until it is ready. */
  async function untilReady(url: () => string, purchase: Purchase, timeoutMs = 30_000) {
    return await eventually(async () => {
      const answer = await travellerCall(url(), purchase, `/v1/checkouts/${purchase.id}`);
      expect(answer.status, answer.text).toBe(200);
      expect(['awaiting_payment', 'placing', 'provisioning', 'ready']).toContain(answer.body.data.status);
      return answer.body.data.status === 'ready' ? answer.body.data : undefined;
    }, timeoutMs);
  }

  async function mintManageLink(url: string, purchase: Purchase) {
    const link = await travellerCall(url, purchase, `/v1/checkouts/${purchase.id}/manage-link`, {
      method: 'POST',
      body: {},
    });
    expect(link.status, link.text).toBe(201);
    purchase.esimId = link.body.data.esimId;
    purchase.manageToken = link.body.data.manageToken;
  }

  async function confirm(url: string, purchase: Purchase) {
    const answer = await partner(url, `/v1/partner/checkouts/${purchase.id}/confirm`, {
      method: 'POST',
      body: { paymentReference: `pay_${purchase.idempotencyKey}` },
    });
    expect(answer.status, answer.text).toBeLessThan(300);
  }

  it('carries every checkout on, and the partner reads and refunds every sale, with no false alarm', async () => {
    const purchases: Purchase[] = [];
    // The process killed is the first; on Redis, purchases are spread over both before the kill.
    const before = (index: number) => (processes[index % processes.length] as BffProcess).url;

    // Sales ready with manage links: two direct, two paid and confirmed by the partner (side by side, as four
    // travellers would buy).
    const ready = await Promise.all(
      (['shop', 'shop', 'shop-pay', 'shop-pay'] as const).map(async (widgetId, index) => {
        const purchase = await prepare(before(index), 'ready', widgetId);
        created(purchase, await checkout(before(index), purchase));
        if (widgetId === 'shop-pay') await confirm(before(index), purchase);
        await untilReady(() => before(index), purchase);
        await mintManageLink(before(index), purchase);
        return purchase;
      }),
    );
    purchases.push(...ready);
    // From here the partner's webhook endpoint is down until after the kill: the events of what follows are
    // pending deliveries when the process dies.
    receiver.failFirst = Number.POSITIVE_INFINITY;
    // Checkouts awaiting the partner's payment.
    for (let index = 0; index < 2; index += 1) {
      const purchase = await prepare(before(index), 'awaiting_payment', 'shop-pay');
      const answer = await checkout(before(index), purchase);
      created(purchase, answer);
      expect(answer.body.data.status).toBe('awaiting_payment');
      purchases.push(purchase);
    }
    // The endpoint has refused a delivery: it and the events behind the circuit wait for its next backoff step.
    const refused = await eventually(async () => {
      const request = receiver.received.find((candidate) => candidate.answered !== 200);
      return request?.headers[WEBHOOK_ID_HEADER.toLowerCase()] as string | undefined;
    });
    // Checkouts whose order is placed and whose eSIM is still being provisioned.
    for (let index = 0; index < 2; index += 1) {
      const purchase = await prepare(before(0), 'provisioning', 'shop');
      created(purchase, await checkout(before(0), purchase));
      purchases.push(purchase);
    }
    // Orders in flight: the sandbox holds them while the process that sent them dies.
    const inFlight = await Promise.all([0, 1].map(() => prepare(before(0), 'in flight', 'shop')));
    purchases.push(...inFlight);
    await sandbox.control.setFaults([
      {
        kind: 'latency',
        method: 'POST',
        path: '/orders',
        latencyMs: ORDER_LATENCY_MS,
        times: inFlight.length,
      },
    ]);
    const lost = inFlight.map((purchase) => checkout(before(0), purchase).catch((error: unknown) => error));
    await eventually(async () => ((await sandbox.control.state()).faults.length === 0 ? true : undefined));

    const killed = processes[0] as BffProcess;
    await killed.kill('SIGKILL');
    const killedAt = Date.now();
    // The partner's endpoint is back: what was pending at the kill is delivered at its next retry.
    receiver.failFirst = 0;
    for (const answer of await Promise.all(lost)) expect(answer).toBeInstanceOf(Error);
    processes[0] = await startInstance();
    const restartedInMs = Date.now() - killedAt;
    // After the restart: the restarted process, and on Redis the one that stayed up, serve in turn.
    let turn = 0;
    const after = () => (processes[turn++ % processes.length] as BffProcess).url;

    // The travellers whose orders were in flight retry with the same key, honouring 409's Retry-After.
    for (const purchase of inFlight) {
      for (;;) {
        const answer = await checkout(after(), purchase);
        if (answer.status !== 409) {
          created(purchase, answer);
          break;
        }
        expect(answer.body.error).toMatchObject({ code: 'idempotency_conflict' });
        expect(Date.now() - killedAt).toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after')) * 1000));
      }
    }
    const inFlightBackMs = Date.now() - killedAt;
    // The partner took the payments of the checkouts that awaited it.
    for (const purchase of purchases.filter((candidate) => candidate.stage === 'awaiting_payment')) {
      await confirm(after(), purchase);
    }
    // Each traveller's widget polls its own checkout, and then each sale is checked, all at once.
    await Promise.all(purchases.map((purchase) => untilReady(after, purchase)));
    const allReadyMs = Date.now() - killedAt;

    const checkSale = async (purchase: Purchase) => {
      // Every manage link opens: those made before the kill, and new ones.
      if (purchase.manageToken === undefined) await mintManageLink(after(), purchase);
      const view = await travellerCall(after(), purchase, '/v1/my-esim', {
        headers: { [MANAGE_TOKEN_HEADER]: purchase.manageToken as string },
      });
      expect(view.status, `${purchase.stage}: ${view.text}`).toBe(200);
      expect(view.body.data.esimId).toBe(purchase.esimId);
      // The partner reads the sale, with its order and eSIM.
      const read = await partner(after(), `/v1/partner/checkouts/${purchase.id}`);
      expect(read.status, `${purchase.stage}: ${read.text}`).toBe(200);
      expect(read.body.data).toMatchObject({ status: 'ready', esimId: purchase.esimId });
      expect(read.body.data.order?.id).toMatch(/./);
      // And asks for its refund.
      const refund = await call(after(), `/v1/partner/esims/${purchase.esimId}/action-requests`, {
        method: 'POST',
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET, 'Idempotency-Key': newKey() },
        body: { reasonCode: 'service_defective', reasonDetail: 'checked after a restart' },
      });
      expect(refund.status, `${purchase.stage}: ${refund.text}`).toBe(201);
      expect(refund.body.data).toMatchObject({ type: 'refund', esimId: purchase.esimId });
    };
    await Promise.all(purchases.map(checkSale));

    // The restarted process's start-up pass read the account's orders: each one is a checkout's.
    const restarted = processes[0] as BffProcess;
    await eventually(async () =>
      restarted.logs.some((line) => line.includes('"message":"upstream orders reconciled"'))
        ? true
        : undefined,
    );
    const orders = await upstreamOrders(sandbox.url);
    expect(orders).toHaveLength(purchases.length);
    await Promise.all(
      orders.map(async (order) => {
        const read = await partner(after(), `/v1/partner/checkouts/${encodeURIComponent(order.externalRef)}`);
        expect(read.status, `order ${order.id} under ${order.externalRef}`).toBe(200);
        expect(read.body.data.order?.id).toBe(order.id);
      }),
    );
    // The deliveries pending at the kill were made after it (at their next retry), and every sale's completion.
    const delivered = (type: string, purchase: Purchase) =>
      receiver.received.some(
        (request) =>
          request.answered === 200 &&
          request.body.includes(`"type":"${type}"`) &&
          request.body.includes(`"id":"${purchase.id}"`),
      );
    const awaiting = purchases.filter((purchase) => purchase.stage === 'awaiting_payment');
    await eventually(
      async () =>
        awaiting.every((purchase) => delivered('checkout.awaiting_payment', purchase)) &&
        purchases.every((purchase) => delivered('checkout.completed', purchase))
          ? true
          : undefined,
      // The endpoint's circuit probes it once per backoff step (1 s, 2 s, 4 s … here): on a slow machine the
      // endpoint is down for several failed probes, so the one that finds it back may come a while after it returned.
      90_000,
    );
    const webhooksBackMs = Date.now() - killedAt;
    // No false alarm: no instance logged an unmatched order (the restarted one's pass logged before "reconciled"),
    // none was sent, and none is queued to be sent (the partner's list of deliveries, which holds the events
    // delivered above: its control).
    const logs = [...killed.logs, ...processes.flatMap((process) => process.logs)];
    expect(logs.filter((line) => line.includes('upstream order without a checkout'))).toEqual([]);
    expect(receiver.received.filter((request) => request.body.includes('order.unmatched'))).toEqual([]);
    const deliveries = async (type: string) => {
      const listed = await partner(after(), `/v1/partner/webhook-deliveries?type=${type}&limit=100`);
      expect(listed.status, listed.text).toBe(200);
      return listed.body.data as unknown[];
    };
    expect(await deliveries('order.unmatched')).toEqual([]);
    expect(await deliveries('checkout.completed')).toHaveLength(purchases.length);
    // The delivery refused before the kill was made after it, retried a backoff step of the config after its
    // failure (1 s here, 10 s by default).
    const redelivered = await eventually(async () => {
      const read = await partner(after(), `/v1/partner/webhook-deliveries/${refused}`);
      expect(read.status, read.text).toBe(200);
      return read.body.data.status === 'delivered' ? read.body.data : undefined;
    }, 30_000);
    const [first, second] = (redelivered.attempts as { at: string }[]).map(({ at }) => Date.parse(at));
    expect(second).toBeDefined();
    expect((second as number) - (first as number)).toBeLessThan(10_000);

    figures.push(
      [
        'purchases across the kill',
        `${purchases.length} (4 ready, 2 awaiting payment, 2 provisioning, 2 in flight)`,
      ],
      ['SIGKILL → restarted and listening', `${(restartedInMs / 1000).toFixed(1)} s`],
      ['SIGKILL → in-flight checkouts answered again', `${(inFlightBackMs / 1000).toFixed(1)} s`],
      ['SIGKILL → every checkout ready', `${(allReadyMs / 1000).toFixed(1)} s`],
      ['SIGKILL → webhooks pending at the kill delivered', `${(webhooksBackMs / 1000).toFixed(1)} s`],
      ['upstream orders, each a checkout’s', orders.length],
      ['order.unmatched webhooks', 0],
    );
  }, 180_000);
});
