/**
 * @module
 * The load generator, a child process of its own (never in the event loop of a server under test): runs
 * autocannon for throughput and a sequential keep-alive probe for latency, as `load-spec.ts` describes.
 * Loopback only: it refuses any other host.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { childOptions, serveParent } from './child-process';
import { type LoadSpec, type ProbeResult, percentile, type ThroughputResult } from './load-spec';

let keyCounter = 0;
function extraHeaders(spec: LoadSpec): Record<string, string> {
  const headers: Record<string, string> = {};
  if (spec.idempotencyKey) headers['Idempotency-Key'] = `bench-${process.pid}-${++keyCounter}`;
  if (spec.forwardedFor) {
    const [a = 0, b = 0, c = 0] = randomBytes(3);
    headers['X-Forwarded-For'] = `10.${a}.${b}.${c}`;
  }
  return headers;
}

function assertLoopback(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`the bench only loads loopback servers, not ${host}`);
  }
}

async function throughput(spec: LoadSpec, seconds: number, statuses: Record<string, number>) {
  let turn = 0;
  const result = await autocannon({
    url: spec.baseUrl,
    connections: spec.connections,
    duration: seconds,
    method: spec.method,
    headers: { ...spec.headers, ...(spec.body ? { 'Content-Type': 'application/json' } : {}) },
    body: spec.body,
    requests: [
      {
        setupRequest(req) {
          const variant = spec.variants[turn++ % spec.variants.length];
          return {
            ...req,
            path: variant?.path ?? '/',
            headers: { ...req.headers, ...variant?.headers, ...extraHeaders(spec) },
          };
        },
      },
    ],
  });
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {}))
    statuses[status] = (statuses[status] ?? 0) + (stat.count ?? 0);
  return result;
}

/** Sends `probeRequests` requests one after the other on one keep-alive connection. */
async function probe(spec: LoadSpec): Promise<ProbeResult> {
  assertLoopback(spec.baseUrl);
  const statuses: Record<string, number> = {};
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(spec.baseUrl);
  const timings: number[] = [];
  let failures = 0;
  for (let i = 0; i < spec.probeRequests; i += 1) {
    const variant = spec.variants[i % spec.variants.length];
    const headers: Record<string, string> = {
      ...spec.headers,
      ...variant?.headers,
      ...extraHeaders(spec),
      ...(spec.body ? { 'Content-Type': 'application/json' } : {}),
    };
    const started = process.hrtime.bigint();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: spec.method,
          path: variant?.path ?? '/',
          headers,
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(spec.body);
    }).catch(() => 0);
    timings.push(Number(process.hrtime.bigint() - started) / 1e6);
    statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    if (status < 200 || status >= 400) failures += 1;
  }
  agent.destroy();
  timings.sort((a, b) => a - b);
  return { latency: { p50: percentile(timings, 50), p99: percentile(timings, 99) }, failures, statuses };
}

/** A throughput run after the warm-up. */
async function run(spec: LoadSpec): Promise<ThroughputResult> {
  assertLoopback(spec.baseUrl);
  if (spec.warmupSeconds > 0) await throughput(spec, spec.warmupSeconds, {});
  const statuses: Record<string, number> = {};
  const loaded = await throughput(spec, spec.durationSeconds, statuses);
  const ok = loaded['2xx'] + loaded['3xx'];
  return {
    rps: ok / loaded.duration,
    loaded: { p50: loaded.latency.p50, p99: loaded.latency.p99 },
    failures: loaded.non2xx - loaded['3xx'] + loaded.errors,
    statuses,
    requests: loaded.requests.total,
  };
}

childOptions<Record<string, never>>();
serveParent(
  { pid: process.pid },
  { run: (spec: LoadSpec) => run(spec), probe: (spec: LoadSpec) => probe(spec) },
);
