/**
 * @module
 * The capacity model: whole purchases, as travellers make them, through two BFF instances on one redis-server
 * behind a round-robin "load balancer" (each request to the next instance). Every traveller does what the
 * widget does: starts the widget (`GET /v1/widgets/{id}/start`), reads the destinations and a destination's plans
 * from the public catalog it names, opens a session only to quote, checks out (`direct`), polls the status once a
 * second until it is ready and reads the installation — then starts again, until the run's time is up. No cache
 * stands in front (each start and catalog read reaches a BFF): the figures are those of a BFF alone.
 * Reported: purchases per minute, per minute of BFF CPU (both instances), p50 / p99 of every step, failures.
 * Bounded in travellers, purchases and time; loopback only. The same drive (`driveFunnel`) runs the store funnel
 * (`store-funnel.ts`: one instance on the embedded store against one on the memory store).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { BffConfigInput } from '@esim-embed/bff';
import { startRedisServer } from '@esim-embed/bff/testing';
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import { type BenchChild, startChild } from './child-process';
import { percentile } from './load-spec';
import { check, fmt, type Section, table } from './report';
import type { BffInfo } from './servers/bff-server';
import type { SandboxInfo } from './servers/sandbox-server';

/** The funnel's bounds. */
export interface FunnelSettings {
  travellers: number;
  durationSeconds: number;
  /** No traveller starts a purchase after this many were started. */
  maxPurchases: number;
}

const STEPS = [
  'start',
  'destinations',
  'plans',
  'session',
  'quote',
  'checkout',
  'status',
  'installation',
] as const;
type Step = (typeof STEPS)[number];

/** How often a traveller's widget polls the status (as the widget does). */
const POLL_MS = 1_000;
/** Upstream provisioning time per order, as a fast real service would take. */
const PROVISIONING_MS = 1_500;

async function purchase(next: () => string, run: FunnelRun, traveller: number, round: number) {
  const timed = async <T>(step: Step, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    run.timings[step].push(performance.now() - started);
    return result;
  };
  const expectStatus = (step: Step, answer: { status: number; json: unknown }, status: number) => {
    if (answer.status !== status) throw new Error(`${step}: ${answer.status} ${JSON.stringify(answer.json)}`);
  };
  // A traveller's address: the BFF trusts one proxy hop, so each traveller counts against its own limits.
  const page = { Origin: BENCH_ORIGIN, 'X-Forwarded-For': `10.1.${traveller}.${round % 250}` };
  // The first screen: the widget's start, then the public catalog it names; no session yet.
  const start = await timed('start', () =>
    call(`${next()}/v1/widgets/${BENCH_WIDGET}/start`, { headers: page }),
  );
  expectStatus('start', start, 200);
  const catalog = `${start.json.data.catalog.path}/en`;
  const destinations = await timed('destinations', () =>
    call(`${next()}${catalog}/destinations`, { headers: page }),
  );
  expectStatus('destinations', destinations, 200);
  const list = destinations.json.data as { code: string }[];
  const code = (list[(traveller + round) % Math.min(list.length, 20)] as { code: string }).code;
  const plans = await timed('plans', () => call(`${next()}${catalog}/plans/${code}`, { headers: page }));
  expectStatus('plans', plans, 200);
  // The session begins at the quote, as in the widget.
  const session = await timed('session', () =>
    call(`${next()}/v1/sessions`, { method: 'POST', headers: page, body: { widgetId: BENCH_WIDGET } }),
  );
  expectStatus('session', session, 201);
  const headers = { ...page, Authorization: `Bearer ${session.json.data.token}` };
  const quote = await timed('quote', () =>
    call(`${next()}/v1/quotes`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': randomBytes(12).toString('hex') },
      body: { offerId: plans.json.data[0].offerId },
    }),
  );
  expectStatus('quote', quote, 201);
  const checkout = await timed('checkout', () =>
    call(`${next()}/v1/checkouts`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': randomBytes(12).toString('hex') },
      body: { quoteId: quote.json.data.id, locale: 'en', termsAccepted: true },
    }),
  );
  expectStatus('checkout', checkout, 201);
  const { id, clientSecret } = checkout.json.data as { id: string; clientSecret: string };
  const secret = { ...headers, 'X-Checkout-Secret': clientSecret };
  for (let polls = 0; ; polls += 1) {
    const status = await timed('status', () => call(`${next()}/v1/checkouts/${id}`, { headers: secret }));
    expectStatus('status', status, 200);
    if (status.json.data.status === 'ready') break;
    if (status.json.data.status === 'failed' || polls > 60)
      throw new Error(`status: ${status.json.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const installation = await timed('installation', () =>
    call(`${next()}/v1/checkouts/${id}/installation`, { headers: secret }),
  );
  expectStatus('installation', installation, 200);
  run.purchases += 1;
}

/** A funnel run's figures, added up over one or more runs against the same instances. */
export interface FunnelRun {
  timings: Record<Step, number[]>;
  purchases: number;
  failures: string[];
  /** Wall-clock seconds of the runs, from the first purchase begun to the last one ended. */
  seconds: number;
  /** BFF CPU (user + system) of all instances during the runs. */
  cpuSeconds: number;
}

/** A run with nothing in it yet. */
export function emptyFunnelRun(): FunnelRun {
  return {
    timings: Object.fromEntries(STEPS.map((step) => [step, []])) as unknown as Record<Step, number[]>,
    purchases: 0,
    failures: [],
    seconds: 0,
    cpuSeconds: 0,
  };
}

/** The sandbox the funnel buys from: provisioning takes `PROVISIONING_MS`, as a fast real service would. */
export function startFunnelSandbox(): Promise<BenchChild<SandboxInfo>> {
  return startChild<SandboxInfo>('servers/sandbox-server.ts', {
    offerCount: 1_000,
    stepDelaysMs: { provisioning: PROVISIONING_MS, delivery: 0, completion: 0 },
  });
}

/** The BFF config of the funnel: the bench config, status answers cached for a second, five checkouts a session. */
export function funnelConfig(sandboxUrl: string): BffConfigInput {
  const config = benchConfig(sandboxUrl, { statusCacheMs: 1_000 });
  const widget = config.widgets[0] as (typeof config.widgets)[number];
  config.widgets = [{ ...widget, limits: { ...widget.limits, checkoutsPerSession: 5 } }];
  return config;
}

/**
 * `settings.travellers` travellers buying one after another through `instances` (each request to the next one)
 * until `settings.durationSeconds` pass or `settings.maxPurchases` were begun; the figures are added to `run`.
 */
export async function driveFunnel(
  instances: BenchChild<BffInfo>[],
  settings: FunnelSettings,
  run: FunnelRun = emptyFunnelRun(),
): Promise<FunnelRun> {
  const urls = instances.map((instance) => instance.info.url);
  let turn = 0;
  const next = () => urls[turn++ % urls.length] as string;
  const cpuBefore = await Promise.all(instances.map((instance) => instance.ask<number>('cpu')));
  const started = performance.now();
  const deadline = started + settings.durationSeconds * 1000;
  let begun = 0;
  await Promise.all(
    Array.from({ length: settings.travellers }, async (_, traveller) => {
      for (let round = 0; performance.now() < deadline && begun < settings.maxPurchases; round += 1) {
        begun += 1;
        await purchase(next, run, traveller, round).catch((error: unknown) => {
          run.failures.push(String(error));
        });
      }
    }),
  );
  run.seconds += (performance.now() - started) / 1000;
  const cpuAfter = await Promise.all(instances.map((instance) => instance.ask<number>('cpu')));
  run.cpuSeconds += cpuAfter.reduce((sum, after, index) => sum + after - (cpuBefore[index] ?? 0), 0) / 1e6;
  return run;
}

/** p50 and p99 of every step of `run`, in `STEPS` order. */
export function stepLatencies(run: FunnelRun): { step: Step; requests: number; p50: number; p99: number }[] {
  return STEPS.map((step) => {
    const sorted = [...run.timings[step]].sort((a, b) => a - b);
    return { step, requests: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
}

/** The funnel section of `pnpm bench`. */
export async function funnelSection(settings: FunnelSettings): Promise<Section> {
  const redis = await startRedisServer();
  const sandbox = await startFunnelSandbox();
  const sessionSecret = randomBytes(32).toString('base64url');
  const config = funnelConfig(sandbox.info.url);
  const instances = await Promise.all(
    [0, 1].map(() =>
      startChild<BffInfo>(
        'servers/bff-server.ts',
        { config, env: BENCH_ENV, sessionSecret, redisUrl: redis.url, logLevel: 'warn' },
        { stdout: 'ignore' },
      ),
    ),
  );
  try {
    const run = await driveFunnel(instances, settings);
    const perMinute = run.purchases / (run.seconds / 60);
    const perCpuMinute = run.purchases / (run.cpuSeconds / 60);
    const rows = stepLatencies(run).map(({ step, requests, p50, p99 }) => [
      step,
      fmt.int(requests),
      fmt.ms(p50),
      fmt.ms(p99),
    ]);
    return {
      title: 'Capacity: whole purchases through two instances on Redis',
      command: 'npx -y pnpm@12.21.0 bench --only funnel',
      lines: [
        `${settings.travellers} travellers buying one after another for ${settings.durationSeconds} s (at most ` +
          `${settings.maxPurchases} purchases), every request to the next of two BFF instances sharing a ` +
          `redis-server, in the widget's order: start, public catalog, session at the quote. The sandbox ` +
          `provisions an order in ${PROVISIONING_MS / 1000} s and the widget polls once a second, so a purchase ` +
          'takes a few seconds of wall time and little CPU. No cache in front: every start and catalog read ' +
          'reaches a BFF (a CDN or the browser would answer most of them).',
        '',
        ...table(
          ['figure', 'value'],
          [
            ['purchases completed', fmt.int(run.purchases)],
            ['failed purchases', fmt.int(run.failures.length)],
            ['purchases per minute (wall)', fmt.int(perMinute)],
            ['BFF CPU, both instances', `${run.cpuSeconds.toFixed(1)} s`],
            ['purchases per minute of BFF CPU (one core)', fmt.int(perCpuMinute)],
          ],
        ),
        ...table(['step', 'requests', 'p50', 'p99'], rows),
        ...(run.failures.length > 0
          ? ['First failures:', '', ...run.failures.slice(0, 3).map((f) => `- ${f}`), '']
          : []),
      ],
      checks: [
        check('funnel.failures', 'failed purchases in the funnel', run.failures.length, '<=', 0, fmt.int),
        check('funnel.completed', 'purchases completed in the funnel', run.purchases, '>=', 1, fmt.int),
      ],
    };
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await sandbox.stop();
    await redis.stop();
  }
}
