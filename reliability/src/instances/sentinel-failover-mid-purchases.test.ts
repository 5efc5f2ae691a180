/**
 * Issue 38's failover under load: two built BFF processes on a Sentinel-watched Redis (a primary and two replicas,
 * money writes waiting for one replica: `ESIM_BFF_REDIS_WAIT_REPLICAS=1`) sell to travellers buying side by side.
 * In the middle of their purchases the replicas are cut off from the primary — what it acknowledges from then on, a
 * failover loses — and the primary is killed (`SIGKILL`) a moment later; the Sentinel promotes a replica. Every
 * traveller is served, at once or answered `503 store_unavailable` and then served when it retries as the widget
 * does (same `Idempotency-Key`, same body), never `500`; no sale is lost (after the failover each checkout is read
 * with its order) and none is made twice (one upstream order per checkout, as many orders as purchases), and no
 * order is taken for a foreign one. The window of 503s after the kill is reported (the goal is under 10 s).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { BffConfigInput } from '@esim-embed/bff';
import { type RunningSandbox, startSandbox } from '@esim-embed/sandbox';
import { CHECKOUT_SECRET_HEADER, PARTNER_SECRET_HEADER } from '@esim-embed/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BffProcess, buildBffBundle, startBffProcess } from '../harness/bff-process';
import {
  type Answer,
  call,
  eventually,
  newKey,
  PARTNER_SECRET,
  type RunningRedis,
  SHOP_ORIGIN,
  startRedisSentinel,
  startRedisServer,
  TEST_ENV,
  testConfig,
} from '../harness/bff-testing';
import { type Figure, recordFigures } from '../harness/figures';
import { upstreamOrders } from '../harness/upstream-orders';

const execFileAsync = promisify(execFile);
const MASTER = 'esim';
const TRAVELLERS = 6;
/** The failover's 503s must end within this (a generous bound for a busy machine; the goal is 10 s). */
const WINDOW_BOUND_MS = 30_000;
/** How long one traveller keeps retrying one call before the test gives up on it. */
const CALL_PATIENCE_MS = 45_000;

let sandbox: RunningSandbox;
let primary: RunningRedis;
const replicas: RunningRedis[] = [];
let sentinel: { port: number; stop(): Promise<void> };
const processes: BffProcess[] = [];

/** Polls `check` until it is true, or fails naming `what` (the servers' own pace). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `redis-cli`'s output for one command to the Redis (or Sentinel) on `port`. */
async function cli(port: number, ...args: string[]): Promise<string> {
  return (await execFileAsync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
}

/** One command's answer as JSON (`redis-cli --json`). */
const ask = async (port: number, ...command: string[]): Promise<unknown> =>
  JSON.parse(await cli(port, '--json', ...command));

function config(sandboxUrl: string): BffConfigInput {
  const base = testConfig(sandboxUrl, { checkoutWatchSeconds: 1 });
  return {
    ...base,
    statusCacheMs: 0,
    widgets: base.widgets.map((widget) => ({
      ...widget,
      upstream: { baseUrl: sandboxUrl, apiKeyEnv: 'TEST_UPSTREAM_KEY', rateLimitPerMinute: 100_000 },
      limits: { sessionsPerIpPerMinute: 1_000, checkoutsPerSession: 20 },
    })),
  };
}

beforeAll(async () => {
  buildBffBundle();
  sandbox = await startSandbox({
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
    offerCount: 100,
  });
  primary = await startRedisServer();
  for (let index = 0; index < 2; index += 1)
    replicas.push(await startRedisServer({ replicaOf: primary.port }));
  for (const replica of replicas) {
    await until('a replica is in sync', async () =>
      (await cli(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
    );
  }
  sentinel = await startRedisSentinel(primary.port, MASTER);
  await until('the Sentinel knows both replicas', async () => {
    const known = (await ask(sentinel.port, 'SENTINEL', 'REPLICAS', MASTER)) as unknown[];
    return known.length === 2;
  });
  const env = {
    ...TEST_ENV,
    ESIM_BFF_SESSION_SECRET: randomBytes(32).toString('base64url'),
    ESIM_BFF_REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`,
    ESIM_BFF_REDIS_MASTER_NAME: MASTER,
    ESIM_BFF_REDIS_WAIT_REPLICAS: '1',
    ESIM_BFF_REDIS_WAIT_TIMEOUT_MS: '2000',
  };
  for (let index = 0; index < 2; index += 1) {
    processes.push(await startBffProcess({ config: config(sandbox.url), env, built: true }));
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.kill()));
  await sentinel?.stop();
  for (const replica of replicas) await replica.stop();
  await primary?.stop();
  await sandbox?.close();
});

/** Every 503 answered, with its time, and every other status seen. */
const unavailableAt: number[] = [];
const statuses = new Map<number, number>();

/**
 * A traveller's call as the widget makes it: a `503 store_unavailable` or a `409 in_progress` (a create whose
 * holder the failover cut off, until its lease runs out) is asked again a moment later; anything else is answered.
 */
async function asTraveller(send: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + CALL_PATIENCE_MS;
  for (;;) {
    const answer = await send().catch(
      (error: unknown): Answer => ({ status: 0, headers: new Headers(), text: String(error), body: null }),
    );
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const unavailable = answer.status === 503 && answer.body?.error?.code === 'store_unavailable';
    if (unavailable) unavailableAt.push(Date.now());
    const inProgress = answer.status === 409 && answer.body?.error?.params?.reason === 'in_progress';
    if (!unavailable && !inProgress) return answer;
    if (Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A traveller with a quote, about to buy: where, as whom, and the create it sends (and sends again). */
interface Quoted {
  url: string;
  auth: Record<string, string>;
  body: { quoteId: string; locale: string; termsAccepted: boolean };
  createKey: string;
}

/** A session, the catalog and a quote on the instance at `url`. */
async function quoteOn(url: string): Promise<Quoted> {
  const session = await asTraveller(() =>
    call(url, '/v1/sessions', {
      method: 'POST',
      headers: { Origin: SHOP_ORIGIN },
      body: { widgetId: 'shop' },
    }),
  );
  expect(session.status, session.text).toBe(201);
  const auth = { Origin: SHOP_ORIGIN, Authorization: `Bearer ${session.body.data.token}` };
  const destinations = await asTraveller(() => call(url, '/v1/destinations', { headers: auth }));
  expect(destinations.status, destinations.text).toBe(200);
  const plans = await asTraveller(() =>
    call(url, `/v1/destinations/${destinations.body.data[0].code}/plans`, { headers: auth }),
  );
  expect(plans.status, plans.text).toBe(200);
  const quoteKey = newKey();
  const quote = await asTraveller(() =>
    call(url, '/v1/quotes', {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': quoteKey },
      body: { offerId: plans.body.data[0].offerId },
    }),
  );
  expect(quote.status, quote.text).toBe(201);
  return {
    url,
    auth,
    body: { quoteId: quote.body.data.id, locale: 'en', termsAccepted: true },
    createKey: newKey(),
  };
}

/** The checkout of a quote, to the end: answers its id once the checkout shows its order. */
async function buy({ url, auth, body, createKey }: Quoted): Promise<string> {
  const created = await asTraveller(() =>
    call(url, '/v1/checkouts', {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': createKey },
      body,
    }),
  );
  expect(created.status, created.text).toBe(201);
  const { id, clientSecret } = created.body.data as { id: string; clientSecret: string };
  const deadline = Date.now() + CALL_PATIENCE_MS;
  for (;;) {
    const read = await asTraveller(() =>
      call(url, `/v1/checkouts/${id}`, { headers: { ...auth, [CHECKOUT_SECRET_HEADER]: clientSecret } }),
    );
    expect(read.status, read.text).toBe(200);
    if (read.body.data.status === 'ready' && read.body.data.order !== null) return id;
    expect(['placing', 'provisioning']).toContain(read.body.data.status);
    if (Date.now() > deadline) throw new Error(`checkout ${id} is still ${read.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One whole purchase on the instance at `url`. */
const purchase = async (url: string) => await buy(await quoteOn(url));

/** Whether both replicas hold everything the primary on `port` wrote. */
async function replicasCaughtUp(port: number): Promise<boolean> {
  const info = await cli(port, 'INFO', 'replication');
  const offset = /master_repl_offset:(\d+)/.exec(info)?.[1];
  const held = [...info.matchAll(/slave\d+:.*offset=(\d+)/g)].map((match) => match[1]);
  return held.length === 2 && held.every((replicaOffset) => replicaOffset === offset);
}

it('serves every traveller through a primary killed mid-purchases: none lost, none twice, 503s only briefly', async () => {
  const instance = (index: number) => (processes[index % processes.length] as BffProcess).url;
  const each = <T>(work: (traveller: number) => Promise<T>) =>
    Promise.all(Array.from({ length: TRAVELLERS }, (_, traveller) => work(traveller)));

  // Purchases before anything happens.
  const before = await each((traveller) => purchase(instance(traveller)));
  // Quotes, held by the replicas too.
  const quoted = await each((traveller) => quoteOn(instance(traveller + 1)));
  await until('the replicas hold the quotes', () => replicasCaughtUp(primary.port));

  // The replicas are cut off from the primary (it asks them for a password they lack, and drops them): what it
  // takes from now on, a failover loses. The travellers buy meanwhile — a money write is not held by a replica,
  // so it is refused (503) before any order is placed — and the primary dies in the middle of it.
  const cutAt = Date.now();
  const password = randomBytes(12).toString('hex');
  await cli(primary.port, 'CONFIG', 'SET', 'requirepass', password);
  await cli(primary.port, '-a', password, '--no-auth-warning', 'CLIENT', 'KILL', 'TYPE', 'replica');
  const during = each((traveller) => buy(quoted[traveller] as Quoted));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await primary.stop();
  const killedAt = Date.now();
  await until(
    'the Sentinel promoted a replica',
    async () => {
      const address = (await ask(sentinel.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER)) as string[];
      return replicas.some((replica) => Number(address[1]) === replica.port);
    },
    20_000,
  );
  const promotedAt = Date.now();
  const served = await during;
  // And purchases after.
  const after = await each((traveller) => purchase(instance(traveller)));

  const checkoutIds = [...before, ...served, ...after];
  const lastUnavailable = Math.max(0, ...unavailableAt);
  const window = lastUnavailable === 0 ? 0 : Math.max(0, lastUnavailable - killedAt);

  // Served: every purchase came to a checkout showing its order. Never a 500.
  expect(checkoutIds).toHaveLength(TRAVELLERS * 3);
  expect(new Set(checkoutIds).size).toBe(checkoutIds.length);
  for (const status of statuses.keys()) expect([200, 201, 409, 503]).toContain(status);
  // None lost: after the failover, every sale is still known, with its order (what the promoted replica holds).
  for (const id of checkoutIds) {
    // Read as the partner's server reads, a 503 (the store still settling on a busy machine) asked again.
    const read = await eventually(async () => {
      const answer = await call(instance(0), `/v1/partner/checkouts/${id}`, {
        headers: { [PARTNER_SECRET_HEADER]: PARTNER_SECRET },
      });
      return answer.status === 503 ? undefined : answer;
    }, 30_000);
    expect(read.status, `${id}: ${read.text}`).toBe(200);
    expect(read.body.data.order, id).not.toBeNull();
  }
  // None twice: one upstream order per checkout, and no other order.
  const orders = await upstreamOrders(sandbox.url);
  for (const id of checkoutIds) expect(orders.filter((order) => order.externalRef === id)).toHaveLength(1);
  expect(orders).toHaveLength(checkoutIds.length);
  for (const process of processes) {
    expect(process.logs.join('\n')).not.toContain('upstream order without a checkout');
  }

  const figures: Figure[] = [
    ['purchases (before, during, after the failover)', checkoutIds.length],
    ['replicas cut off → primary killed (ms)', killedAt - cutAt],
    ['primary killed → replica promoted (ms)', promotedAt - killedAt],
    ['503 answers', unavailableAt.length],
    ['503s went on after the kill for (ms; goal ≤ 10,000)', window],
    ['409 in_progress answers', statuses.get(409) ?? 0],
  ];
  recordFigures('sentinel failover mid-purchases', figures);
  expect(window, `503s went on ${window} ms after the primary died (goal ≤ 10 s)`).toBeLessThanOrEqual(
    WINDOW_BOUND_MS,
  );
}, 120_000);
