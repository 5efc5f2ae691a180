/**
 * @module
 * What observability costs a request, in process: `app.fetch` of a cached catalog read (`GET /v1/destinations`
 * with a session) and of the cheapest route (`GET /healthz`) on BFFs over one sandbox — metrics and tracing
 * off, metrics on, metrics and tracing on (spans exported to a loopback OTLP receiver) — in alternating rounds,
 * median CPU µs per request of each (CPU time, so that other work on the machine does not count). Not a
 * section of `pnpm bench`; run it alone:
 * `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/observability-cost.ts`.
 */
import { randomBytes } from 'node:crypto';
import {
  type Bff,
  createBff,
  createLogger,
  parseConfig,
  resolveSecrets,
  startTracing,
} from '@esim-embed/bff';
import { startOtlpReceiver } from '@esim-embed/bff/testing';
import { startSandbox } from '@esim-embed/sandbox';
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';

const ROUNDS = 41;
const REQUESTS_PER_ROUND = 1_000;

const sandbox = await startSandbox({ offerCount: 300 });
const otlp = await startOtlpReceiver();
const config = parseConfig(benchConfig(sandbox.url), 'bench config');

async function bffWith(observability: Parameters<typeof createBff>[0]['observability']): Promise<Bff> {
  return createBff({
    // Measured as production runs: answers unchecked against their schemas.
    checkAnswers: false,
    loaded: {
      config,
      secrets: resolveSecrets(config, BENCH_ENV),
      sessionSecret: randomBytes(32),
      source: 'bench',
    },
    logger: createLogger({ level: 'info', write: () => {} }),
    startWorkers: false,
    observability,
  });
}

const variants: [string, Bff][] = [
  ['off', await bffWith({})],
  ['metrics', await bffWith({ metrics: true })],
  [
    'metrics + tracing',
    await bffWith({ metrics: true, tracing: await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url }) }),
  ],
];

/** A cached read's request for one BFF: a session opened, the catalog loaded once. */
async function cachedRead(bff: Bff): Promise<() => Promise<Response> | Response> {
  const session = await bff.app.fetch(
    new Request('http://bff.local/v1/sessions', {
      method: 'POST',
      headers: { Origin: BENCH_ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ widgetId: BENCH_WIDGET }),
    }),
  );
  const token = ((await session.json()) as { data: { token: string } }).data.token;
  const headers = { Origin: BENCH_ORIGIN, Authorization: `Bearer ${token}` };
  const read = () => bff.app.fetch(new Request('http://bff.local/v1/destinations', { headers }));
  const first = await read();
  if (first.status !== 200) throw new Error(`cached read answered ${first.status}: ${await first.text()}`);
  return read;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
/** CPU time this process used (user and system), µs: unlike wall time, it does not grow when others use the cores. */
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Each variant's median CPU µs per request, the variants taking turns round by round. */
async function measure(title: string, requests: (readonly [string, () => Promise<Response> | Response])[]) {
  const samples = new Map<string, number[]>(requests.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    // A different variant goes first each round, so none always runs on a warmer or quieter machine.
    for (let turn = 0; turn < requests.length; turn += 1) {
      const [name, request] = requests[(round + turn) % requests.length] ?? requests[0] ?? [];
      if (name === undefined || request === undefined) continue;
      const started = cpuMicros();
      for (let index = 0; index < REQUESTS_PER_ROUND; index += 1) await (await request()).arrayBuffer();
      samples.get(name)?.push((cpuMicros() - started) / REQUESTS_PER_ROUND);
    }
  }
  const base = median(samples.get('off') ?? []);
  console.log(`${title} through app.fetch, ${ROUNDS} rounds × ${REQUESTS_PER_ROUND}, median CPU µs/request:`);
  for (const [name, values] of samples) {
    const value = median(values);
    const delta = value - base;
    console.log(
      `  ${name.padEnd(18)} ${value.toFixed(1)} µs  (${delta >= 0 ? '+' : ''}${delta.toFixed(1)} µs)`,
    );
  }
}

await measure(
  'GET /v1/destinations (cached)',
  await Promise.all(variants.map(async ([name, bff]) => [name, await cachedRead(bff)] as const)),
);
await measure(
  'GET /healthz',
  variants.map(
    ([name, bff]) => [name, () => bff.app.fetch(new Request('http://bff.local/healthz'))] as const,
  ),
);
for (const [, bff] of variants) await bff.close();
await otlp.close();
await sandbox.close();
