/**
 * @module
 * What the upstream key's budget costs: the check before each upstream call, timed for a traveller's first call
 * of a request (its own shares, then the key's: two store round trips), a later call of the same request, a
 * partner's call and background work (one round trip each), one after another and 16 at a time, on the memory
 * store and on a real redis-server; and the budget's store operations on cached catalog reads (none: they make no
 * upstream call).
 */
import { performance } from 'node:perf_hooks';
import {
  createBff,
  createLogger,
  createMemoryStore,
  createRedisStore,
  parseConfig,
  resolveSecrets,
  type Store,
  serveBff,
} from '@esim-embed/bff';
import { createUpstreamBudget, runForUpstreamCaller, startRedisServer } from '@esim-embed/bff/testing';
import { SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import { percentile } from './load-spec';
import { check, fmt, type Section, table } from './report';

/** Checks timed per kind and store, after a warm-up: bounded, loopback only. */
const CHECKS = 2_000;
const WARM_UP = 200;
const CONCURRENCY = 16;
/** Cached catalog reads counted. */
const CATALOG_READS = 500;

type Kind = 'traveller, first call' | 'traveller, later call' | 'partner' | 'background';
const KINDS: readonly Kind[] = ['traveller, first call', 'traveller, later call', 'partner', 'background'];

interface KindFigures {
  kind: Kind;
  p50: number;
  p99: number;
  /** Checks per second with CONCURRENCY at once. */
  perSecond: number;
}

const silent = createLogger({ level: 'error', write: () => {} });

/** One check of `kind`; `index` makes every traveller new, so that no share ever refuses. */
function checkOnce(gate: { beforeCall(): Promise<void> }, kind: Kind, index: number): Promise<void> {
  const traveller = {
    kind: 'traveller' as const,
    address: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`,
  };
  switch (kind) {
    case 'traveller, first call':
      return runForUpstreamCaller({ ...traveller, sessionId: `ses_${index}` }, () => gate.beforeCall());
    case 'traveller, later call':
      return runForUpstreamCaller({ ...traveller, sessionId: `ses_${index}` }, async () => {
        await gate.beforeCall();
        const started = performance.now();
        await gate.beforeCall();
        laterCallMs = performance.now() - started;
      });
    case 'partner':
      return runForUpstreamCaller({ kind: 'partner', address: null, sessionId: null }, () =>
        gate.beforeCall(),
      );
    case 'background':
      return gate.beforeCall();
  }
}
/** The later call of a `traveller, later call` check (the first one of its request is not what is timed). */
let laterCallMs = 0;

async function measureStore(name: string, store: Store): Promise<KindFigures[]> {
  const figures: KindFigures[] = [];
  let issued = 0;
  const nextIndex = () => {
    issued += 1;
    return issued;
  };
  for (const kind of KINDS) {
    // A key large enough that nothing is refused: the cost of counting, not of refusing.
    const gate = createUpstreamBudget({
      store,
      credential: `bench-${name}-${kind.replaceAll(/\W/g, '')}`,
      configuredLimit: 100_000_000,
      widgetsOnKey: 1,
      percents: { backgroundPercent: 50, addressPercent: 100, sessionPercent: 100, widgetPercent: 100 },
      logger: silent,
    }).gate(BENCH_WIDGET);
    const times: number[] = [];
    for (let index = 0; index < WARM_UP + CHECKS; index += 1) {
      const started = performance.now();
      await checkOnce(gate, kind, nextIndex());
      const elapsed = kind === 'traveller, later call' ? laterCallMs : performance.now() - started;
      if (index >= WARM_UP) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    let left = CHECKS;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left > 0) {
          left -= 1;
          await checkOnce(gate, kind, nextIndex());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    figures.push({
      kind,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      perSecond: CHECKS / seconds,
    });
  }
  return figures;
}

/** A store that counts the budget's operations (its counters and its pause), and all operations. */
function countingStore(store: Store) {
  const counts = { budget: 0, all: 0 };
  const count = (key: string) => {
    counts.all += 1;
    if (key.startsWith('counter:upstream:') || key.startsWith('upstream-pause:')) counts.budget += 1;
  };
  const counted = <R>(key: string, run: () => R): R => {
    count(key);
    return run();
  };
  const wrapped: Store = {
    get: (key) => counted(key, () => store.get(key)),
    insert: (key, value, ttlMs) => counted(key, () => store.insert(key, value, ttlMs)),
    compareAndSet: (key, version, value, ttlMs) =>
      counted(key, () => store.compareAndSet(key, version, value, ttlMs)),
    compareAndDelete: (key, version) => counted(key, () => store.compareAndDelete(key, version)),
    increment: (key, by, windowMs) => counted(key, () => store.increment(key, by, windowMs)),
    queue: (name) => store.queue(name),
    sortedIndex: (name) => store.sortedIndex(name),
    entryBook: (name) => store.entryBook(name),
    scanKeys: (prefix, cursor, count) => store.scanKeys(prefix, cursor, count),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  return { store: wrapped, counts };
}

/** The budget's store operations during cached catalog reads of a BFF on the sandbox. */
async function catalogReads(): Promise<{ budget: number; all: number; reads: number }> {
  const sandbox = await startSandbox({ offerCount: 300 });
  const { store, counts } = countingStore(createMemoryStore());
  const parsed = parseConfig(benchConfig(sandbox.url), 'bench budget config');
  const bff = createBff({
    // Measured as production runs: answers unchecked against their schemas.
    checkAnswers: false,
    loaded: {
      config: parsed,
      secrets: resolveSecrets(parsed, { BENCH_UPSTREAM_KEY: SANDBOX_KEYS.lagoon }),
      sessionSecret: Buffer.alloc(32, 7),
      source: 'bench',
    },
    logger: silent,
    store,
    startWorkers: false,
  });
  const server = await serveBff(bff, { port: 0 });
  try {
    const session = await call(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { Origin: BENCH_ORIGIN },
      body: { widgetId: BENCH_WIDGET },
    });
    const headers = { Origin: BENCH_ORIGIN, Authorization: `Bearer ${session.json.data.token}` };
    const destinations = await call(`${server.url}/v1/destinations`, { headers });
    const code = destinations.json.data[0].code as string;
    const before = { ...counts };
    for (let index = 0; index < CATALOG_READS; index += 1) {
      await call(`${server.url}/v1/destinations`, { headers, expect: 200 });
      await call(`${server.url}/v1/destinations/${code}/plans`, { headers, expect: 200 });
    }
    return { budget: counts.budget - before.budget, all: counts.all - before.all, reads: CATALOG_READS * 2 };
  } finally {
    await server.close();
    await sandbox.close();
  }
}

/** The budget check's cost per upstream call, on both stores, and its absence from cached reads. */
export async function budgetCostSection(): Promise<Section> {
  const redis = await startRedisServer();
  try {
    const memory = await measureStore('memory', createMemoryStore());
    const redisStore = createRedisStore({ url: redis.url });
    const shared = await measureStore('redis', redisStore);
    await redisStore.close();
    const reads = await catalogReads();
    const rows = [
      ...memory.map((figures) => ['memory', figures]),
      ...shared.map((figures) => ['redis', figures]),
    ].map(([store, figures]) => {
      const kind = figures as KindFigures;
      return [store as string, kind.kind, fmt.ms(kind.p50), fmt.ms(kind.p99), fmt.int(kind.perSecond)];
    });
    const redisFirst = shared.find((figures) => figures.kind === 'traveller, first call') as KindFigures;
    return {
      title: 'Upstream budget check per upstream call',
      command: 'npx -y pnpm@12.21.0 bench --only budget',
      lines: [
        `${CHECKS} checks per kind and store after ${WARM_UP} warm-up ones, one after another (p50, p99), then ` +
          `${CHECKS} with ${CONCURRENCY} at once (checks per second). A traveller's first upstream call of a request ` +
          'takes its address and session shares, then the key and widget counters with the pause read (two round ' +
          'trips); every other call one round trip. Redis on loopback.',
        '',
        ...table(['store', 'call', 'p50', 'p99', `checks/s, ${CONCURRENCY} at once`], rows),
        '',
        `Cached catalog reads (${fmt.int(reads.reads)} session reads of destinations and plans): ` +
          `${fmt.int(reads.budget)} budget store operations (${fmt.int(reads.all)} store operations in all: ` +
          "the session's request counter).",
      ],
      checks: [
        check(
          'budget.redis.first.p50',
          'budget check, Redis, first call of a request, p50',
          redisFirst.p50,
          '<=',
          1,
          fmt.ms,
        ),
        check(
          'budget.catalog.ops',
          'budget store operations on cached catalog reads',
          reads.budget,
          '<=',
          0,
          fmt.int,
        ),
      ],
    };
  } finally {
    await redis.stop();
  }
}
