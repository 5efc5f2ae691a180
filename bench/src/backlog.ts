/**
 * @module
 * A partner's webhook endpoint down under a backlog: what pending deliveries cost everything else. For each
 * setup — two BFF instances on one redis-server, and one instance on the embedded store — with the webhook queue
 * of this build (and, when `BENCH_BASELINE_BFF_ENTRY` names the `src/index.ts` of a checkout of the release
 * before, with that release's list-based queue, side by side): BFF CPU per purchase with an empty queue, the
 * same with `BACKLOG` deliveries pending for the dead endpoint, idle CPU per instance with the backlog and no
 * traffic, memory, and deliveries per second once the endpoint answers again. Bounded in purchases, seconds and
 * deliveries; loopback only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, startRedisServer } from '@esim-embed/bff/testing';
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import { type BenchChild, startChild } from './child-process';
import { check, fmt, type Section, table } from './report';
import type { BffInfo, MemoryFigures } from './servers/bff-server';
import type { SandboxInfo } from './servers/sandbox-server';

/** The run's bounds. */
export interface BacklogSettings {
  /** Deliveries pending for the dead endpoint. */
  backlog: number;
  /** Purchases per measured phase (bounded by `phaseSeconds` too). */
  purchases: number;
  phaseSeconds: number;
  /** Idle CPU is measured over this long. */
  idleSeconds: number;
  /** The drain is measured for at most this long once the endpoint is back. */
  drainSeconds: number;
  /**
   * Which stores: `redis` (two instances), `embedded` (one instance on the embedded store in a fresh data folder;
   * the release before, which has none, runs on its default, the memory store), `memory` (one instance).
   */
  stores: StoreKind[];
}

type StoreKind = 'redis' | 'embedded' | 'memory';

interface Setup {
  queue: 'work queue (this build)' | 'JSON list (release before)';
  store: StoreKind;
  entry: string | undefined;
}

interface Figures {
  setup: Setup;
  instances: number;
  emptyCpuMsPerPurchase: number;
  backlogCpuMsPerPurchase: number;
  empty: PurchaseTally;
  backlog: PurchaseTally;
  idleCpuShare: number;
  memory: MemoryFigures[];
  drained: number;
  drainLeft: number;
  deliveriesPerSecondPerInstance: number;
  firstDeliveryAfterMs: number;
}

const SECRET = 'whsec_bench_backlog_0123456789abcdef';

/** A share of one core, to a tenth of a percent (idle figures are small). */
const share = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : '—');

/** A webhook endpoint on `port` that answers 204 and counts what it received (started when the partner is back). */
async function startEndpoint(port: number) {
  const received: number[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(performance.now());
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Purchases that completed, and those refused on the way (the first reasons kept). */
interface PurchaseTally {
  done: number;
  failed: number;
  reasons: string[];
}

/** Buy `count` eSIMs (`direct`: the order is placed at checkout), four at a time, until done or `seconds` pass. */
async function purchases(
  urls: string[],
  count: number,
  seconds: number,
  tag: string,
): Promise<PurchaseTally> {
  let turn = 0;
  const next = () => urls[turn++ % urls.length] as string;
  const deadline = performance.now() + seconds * 1000;
  let begun = 0;
  const tally: PurchaseTally = { done: 0, failed: 0, reasons: [] };
  async function buy(page: Record<string, string>, traveller: number, round: number) {
    const session = await call(`${next()}/v1/sessions`, {
      method: 'POST',
      headers: page,
      body: { widgetId: BENCH_WIDGET },
    });
    const headers = { ...page, Authorization: `Bearer ${session.json.data.token}` };
    const destinations = await call(`${next()}/v1/destinations`, { headers });
    const code = destinations.json.data[(traveller + round) % 10].code as string;
    const offerId = (await call(`${next()}/v1/destinations/${code}/plans`, { headers })).json.data[0].offerId;
    const key = `${tag}-${traveller}-${round}-${randomBytes(4).toString('hex')}`;
    const quote = await call(`${next()}/v1/quotes`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `q-${key}` },
      body: { offerId },
    });
    const checkout = await call(`${next()}/v1/checkouts`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `c-${key}` },
      body: { quoteId: quote.json.data.id, locale: 'en', termsAccepted: true },
    });
    const { id, clientSecret } = checkout.json.data as { id: string; clientSecret: string };
    for (let polls = 0; polls < 100; polls += 1) {
      const status = await call(`${next()}/v1/checkouts/${id}`, {
        headers: { ...headers, 'X-Checkout-Secret': clientSecret },
      });
      if (status.json.data.status === 'ready') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`checkout ${id} was not ready after 100 polls`);
  }
  await Promise.all(
    Array.from({ length: 4 }, async (_, traveller) => {
      const page = { Origin: BENCH_ORIGIN, 'X-Forwarded-For': `10.9.${traveller}.1` };
      for (let round = 0; begun < count && performance.now() < deadline; round += 1) {
        begun += 1;
        try {
          await buy(page, traveller, round);
          tally.done += 1;
        } catch (error) {
          tally.failed += 1;
          if (tally.reasons.length < 2) tally.reasons.push(String(error).slice(0, 200));
        }
      }
    }),
  );
  return tally;
}

const cpuMicros = async (instances: BenchChild<BffInfo>[]) =>
  (await Promise.all(instances.map((instance) => instance.ask<number>('cpu')))).reduce((a, b) => a + b, 0);

async function measure(
  sandboxUrl: string,
  redisUrl: string,
  setup: Setup,
  settings: BacklogSettings,
): Promise<Figures> {
  const endpointPort = await freePort();
  const base = benchConfig(sandboxUrl);
  const widget = base.widgets[0] as (typeof base.widgets)[number];
  const config = {
    ...base,
    checkoutWatchSeconds: 1,
    widgets: [
      {
        ...widget,
        webhookUrl: `http://127.0.0.1:${endpointPort}/hooks`,
        webhookSecretEnv: 'BENCH_WEBHOOK_SECRET',
      },
    ],
  };
  const count = setup.store === 'redis' ? 2 : 1;
  const sessionSecret = randomBytes(32).toString('base64url');
  const dataDir = setup.store === 'embedded' ? mkdtempSync(join(tmpdir(), 'esim-bench-backlog-')) : undefined;
  // Each setup on a Redis of its own: nothing left by the one before.
  const redisDb = setup.store === 'redis' ? `${redisUrl}/${setup.entry === undefined ? 1 : 2}` : undefined;
  const instances = await Promise.all(
    Array.from({ length: count }, () =>
      startChild<BffInfo>(
        'servers/bff-server.ts',
        {
          config,
          env: { ...BENCH_ENV, BENCH_WEBHOOK_SECRET: SECRET },
          sessionSecret,
          redisUrl: redisDb,
          dataDir,
          logLevel: 'error',
        },
        { stdout: 'ignore', env: setup.entry === undefined ? {} : { BENCH_BFF_ENTRY: setup.entry } },
      ),
    ),
  );
  const urls = instances.map((instance) => instance.info.url);
  let endpoint: Awaited<ReturnType<typeof startEndpoint>> | undefined;
  try {
    // Warm-up, then an empty queue (the endpoint is down from the start: its own events wait too).
    await purchases(urls, 10, settings.phaseSeconds, 'warm');
    let cpu = await cpuMicros(instances);
    const empty = await purchases(urls, settings.purchases, settings.phaseSeconds, 'empty');
    const emptyCpu = (await cpuMicros(instances)) - cpu;

    await (instances[0] as BenchChild<BffInfo>).ask('seedWebhooks', {
      widgetId: BENCH_WIDGET,
      count: settings.backlog,
    });
    // Idle: no traffic at all, the backlog pending.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    cpu = await cpuMicros(instances);
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, settings.idleSeconds * 1000));
    const idleCpuShare =
      ((await cpuMicros(instances)) - cpu) / 1000 / (performance.now() - idleStarted) / count;

    cpu = await cpuMicros(instances);
    const backlog = await purchases(urls, settings.purchases, settings.phaseSeconds, 'backlog');
    const backlogCpu = (await cpuMicros(instances)) - cpu;
    const memory = await Promise.all(instances.map((instance) => instance.ask<MemoryFigures>('memory')));

    // The partner is back: count what arrives until the queue is empty or the time is up.
    const depthBefore = await (instances[0] as BenchChild<BffInfo>)
      .ask<number>('webhookDepth')
      .catch(() => Number.NaN);
    const back = performance.now();
    endpoint = await startEndpoint(endpointPort);
    const drainDeadline = back + settings.drainSeconds * 1000;
    let left = depthBefore;
    while (performance.now() < drainDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      // A store too busy to answer (the list-based queue under its backlog) is read again next time.
      left = await (instances[0] as BenchChild<BffInfo>).ask<number>('webhookDepth').catch(() => left);
      if (left === 0) break;
    }
    const received = endpoint.received;
    const first = received[0] ?? Number.NaN;
    const last = received[received.length - 1] ?? Number.NaN;
    const drainSeconds = Math.max(0.001, (last - first) / 1000);
    return {
      setup,
      instances: count,
      emptyCpuMsPerPurchase: emptyCpu / 1000 / Math.max(1, empty.done),
      backlogCpuMsPerPurchase: backlogCpu / 1000 / Math.max(1, backlog.done),
      empty,
      backlog,
      idleCpuShare,
      memory,
      drained: received.length,
      drainLeft: left,
      deliveriesPerSecondPerInstance: received.length / drainSeconds / count,
      firstDeliveryAfterMs: first - back,
    };
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await endpoint?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The backlog section of `pnpm bench`. */
export async function backlogSection(settings: BacklogSettings): Promise<Section> {
  const redis = await startRedisServer();
  const sandbox = await startChild<SandboxInfo>('servers/sandbox-server.ts', {
    offerCount: 1_000,
    stepDelaysMs: { provisioning: 0, delivery: 0, completion: 0 },
  });
  const baseline = process.env.BENCH_BASELINE_BFF_ENTRY;
  const setups: Setup[] = settings.stores.flatMap((store) => [
    ...(baseline ? [{ queue: 'JSON list (release before)', store, entry: baseline } as const] : []),
    { queue: 'work queue (this build)', store, entry: undefined } as const,
  ]);
  const results: Figures[] = [];
  try {
    for (const setup of setups) {
      console.log(`[bench] backlog: ${setup.queue} on ${setup.store}`);
      results.push(await measure(sandbox.info.url, redis.url, setup, settings));
    }
  } finally {
    await sandbox.stop();
    await redis.stop();
  }
  const rows = results.map((figures) => [
    figures.setup.queue,
    figures.setup.entry !== undefined && figures.setup.store === 'embedded'
      ? 'memory (its default) ×1'
      : `${figures.setup.store} ×${figures.instances}`,
    fmt.ms(figures.emptyCpuMsPerPurchase),
    fmt.ms(figures.backlogCpuMsPerPurchase),
    `${(figures.backlogCpuMsPerPurchase / figures.emptyCpuMsPerPurchase).toFixed(2)}×`,
    `${figures.empty.done} / ${figures.backlog.done} (${figures.empty.failed + figures.backlog.failed} failed)`,
    share(figures.idleCpuShare),
    figures.memory.map((memory) => fmt.mb(memory.rss)).join(' / '),
    fmt.int(figures.deliveriesPerSecondPerInstance),
    `${fmt.int(figures.drained)} (${fmt.int(figures.drainLeft)} left)`,
    fmt.ms(figures.firstDeliveryAfterMs),
  ]);
  const current = results.filter((figures) => figures.setup.entry === undefined);
  return {
    title: 'A dead webhook endpoint under a backlog',
    command: 'npx -y pnpm@12.21.0 bench --only backlog',
    lines: [
      `Per setup: ${settings.purchases} purchases (\`direct\`, four travellers each opening a session per purchase, ` +
        `bounded to ${settings.phaseSeconds} s) ` +
        'with an empty queue, then ' +
        `${fmt.int(settings.backlog)} pending deliveries put on the queue through its own API for the one widget whose ` +
        `endpoint is down (a port nobody listens on), ${settings.idleSeconds} s with no traffic, the same purchases ` +
        'again, then the endpoint comes back (a local server answering 204) and the drain is counted for at most ' +
        `${settings.drainSeconds} s. Purchases are spread over the instances round-robin; the events they cause are ` +
        'queued for the dead endpoint too. CPU is user + system of the BFF processes (all instances); deliveries per ' +
        'second are counted by the endpoint from its first to its last request, divided by the instances. The ' +
        'release before rewrote its JSON list on every enqueue, so its backlog is written as that release stored it.',
      '',
      ...table(
        [
          'queue',
          'store',
          'CPU / purchase, empty',
          'CPU / purchase, backlog',
          'ratio',
          'purchases empty / backlog',
          'idle CPU / instance',
          'RSS after',
          'deliveries/s / instance',
          'delivered in the window',
          'first delivery after back',
        ],
        rows,
      ),
      ...results.flatMap((figures) =>
        [...figures.empty.reasons, ...figures.backlog.reasons].map(
          (reason) => `- ${figures.setup.queue} on ${figures.setup.store}, a failed purchase: ${reason}`,
        ),
      ),
    ],
    checks: current.flatMap((figures) => {
      const id = `backlog.${figures.setup.store}`;
      return [
        check(
          `${id}.ratio`,
          `CPU per purchase under the backlog vs empty, ${figures.setup.store}`,
          figures.backlogCpuMsPerPurchase / figures.emptyCpuMsPerPurchase,
          '<=',
          1.2,
          fmt.plain,
        ),
        check(
          `${id}.idle`,
          `idle CPU per instance with the backlog, ${figures.setup.store}`,
          figures.idleCpuShare,
          '<=',
          0.02,
          share,
        ),
        check(
          `${id}.drain`,
          `deliveries per second per instance once the endpoint is back, ${figures.setup.store}`,
          figures.deliveriesPerSecondPerInstance,
          '>=',
          500,
          fmt.int,
        ),
      ];
    }),
  };
}
