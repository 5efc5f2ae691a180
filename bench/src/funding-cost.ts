/**
 * @module
 * The cost of checking the partner's funding when a checkout is created: `POST /v1/checkouts` in
 * `partner_confirm` mode (no upstream call of its own, so the check is a visible part of it) timed over HTTP,
 * and inside it the funding hold itself (account read from its few-second cache, the reservation ledger read
 * and compare-and-set), on the memory store and on a real redis-server. Open checkouts are left open, so the
 * ledger holds as a busy shop's would. Then the ledger alone with 10 holds open on one account against 10,000
 * (`funding-ledger-scale.ts`).
 */
import { performance } from 'node:perf_hooks';
import {
  type BffConfigInput,
  createBff,
  createLogger,
  createMemoryStore,
  createRedisStore,
  parseConfig,
  resolveSecrets,
  type Store,
  serveBff,
} from '@esim-embed/bff';
import { startRedisServer } from '@esim-embed/bff/testing';
import { SANDBOX_KEYS, startSandbox } from '@esim-embed/sandbox';
import { BENCH_ORIGIN } from './bench-config';
import { call } from './bench-http';
import { fundingLedgerScale } from './funding-ledger-scale';
import { percentile } from './load-spec';
import { check, fmt, type Section, table } from './report';

/** Checkouts timed per store (after a warm-up): bounded, loopback only. */
const CHECKOUTS = 300;
const WARM_UP = 30;
const WIDGET = 'bench-pay';
/** A session may create this many checkouts; a new one is opened after. */
const PER_SESSION = 100;

interface StoreFigures {
  store: string;
  checkout: { p50: number; p99: number };
  hold: { p50: number; p90: number; p99: number };
  openHolds: number;
}

function config(sandboxUrl: string): BffConfigInput {
  return {
    statusCacheMs: 0,
    // One load generator: the upstream budget's shares per address, session and widget are the whole key.
    upstreamBudget: { addressPercent: 100, sessionPercent: 100, widgetPercent: 100 },
    // One address opens every unpaid checkout measured, PER_SESSION a session: the caps at their maximum, so that
    // the hold is measured as it decides, not refused by the caps (their own tests are in the BFF's suite).
    unpaidHolds: { perSession: PER_SESSION, perAddress: 1_000, maxOpen: 1_000, sharePercent: 100 },
    widgets: [
      {
        id: WIDGET,
        displayName: 'Bench Shop',
        environment: 'test',
        upstream: {
          baseUrl: sandboxUrl,
          apiKeyEnv: 'BENCH_UPSTREAM_KEY',
          timeoutMs: 10_000,
          rateLimitPerMinute: 1_000_000,
        },
        allowedOrigins: [BENCH_ORIGIN],
        checkoutMode: 'partner_confirm',
        partnerSecretEnv: 'BENCH_PARTNER_SECRET',
        limits: {
          sessionsPerIpPerMinute: 10_000,
          requestsPerSessionPerMinute: 100_000,
          quotesPerSession: 1_000,
          checkoutsPerSession: PER_SESSION,
        },
      },
    ],
  };
}

async function measure(sandboxUrl: string, name: string, store: Store): Promise<StoreFigures> {
  const parsed = parseConfig(config(sandboxUrl), 'bench funding config');
  const bff = createBff({
    // Measured as production runs: answers unchecked against their schemas.
    checkAnswers: false,
    loaded: {
      config: parsed,
      secrets: resolveSecrets(parsed, {
        BENCH_UPSTREAM_KEY: SANDBOX_KEYS.lagoon,
        BENCH_PARTNER_SECRET: 'bench-partner-secret-0123456789abcdef',
      }),
      sessionSecret: Buffer.alloc(32, 7),
      source: 'bench',
    },
    logger: createLogger({ level: 'error', write: () => {} }),
    store,
    startWorkers: false,
  });
  const server = await serveBff(bff, { port: 0 });
  const holdTimes: number[] = [];
  const checkoutTimes: number[] = [];
  // Time the hold where the checkout service calls it: the same object, so every create goes through this.
  const hold = bff.funding.hold.bind(bff.funding);
  bff.funding.hold = async (...args) => {
    const started = performance.now();
    try {
      return await hold(...args);
    } finally {
      holdTimes.push(performance.now() - started);
    }
  };
  try {
    let headers: Record<string, string> = {};
    let offerId = '';
    for (let index = 0; index < WARM_UP + CHECKOUTS; index += 1) {
      if (index % PER_SESSION === 0) {
        const session = await call(`${server.url}/v1/sessions`, {
          method: 'POST',
          headers: { Origin: BENCH_ORIGIN },
          body: { widgetId: WIDGET },
        });
        headers = { Origin: BENCH_ORIGIN, Authorization: `Bearer ${session.json.data.token}` };
        const destinations = await call(`${server.url}/v1/destinations`, { headers });
        const code = destinations.json.data[0].code as string;
        const plans = await call(`${server.url}/v1/destinations/${code}/plans`, { headers });
        offerId = plans.json.data[0].offerId as string;
      }
      const quote = await call(`${server.url}/v1/quotes`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `bench-quote-${name}-${index}` },
        body: { offerId },
      });
      const started = performance.now();
      const created = await call(`${server.url}/v1/checkouts`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `bench-checkout-${name}-${index}` },
        body: { quoteId: quote.json.data.id, locale: 'en', termsAccepted: true },
      });
      const elapsed = performance.now() - started;
      if (created.status !== 201)
        throw new Error(`a bench checkout was refused: ${created.status} ${JSON.stringify(created.json)}`);
      if (index >= WARM_UP) checkoutTimes.push(elapsed);
    }
    const holds = holdTimes.slice(WARM_UP).sort((a, b) => a - b);
    const checkouts = checkoutTimes.sort((a, b) => a - b);
    const account = await bff.funding.account(bff.widgets.get(WIDGET) as never);
    return {
      store: name,
      checkout: { p50: percentile(checkouts, 50), p99: percentile(checkouts, 99) },
      hold: { p50: percentile(holds, 50), p90: percentile(holds, 90), p99: percentile(holds, 99) },
      openHolds: account.openCheckouts,
    };
  } finally {
    await server.close();
  }
}

/** The funding check's share of checkout creation, on both stores. */
export async function fundingCostSection(): Promise<Section> {
  const sandbox = await startSandbox({ offerCount: 1_000 });
  const redis = await startRedisServer();
  try {
    const memory = await measure(sandbox.url, 'memory', createMemoryStore());
    const shared = await measure(sandbox.url, 'redis', createRedisStore({ url: redis.url }));
    const scale = await fundingLedgerScale(redis);
    const rows = [memory, shared].map((figures) => [
      figures.store,
      fmt.ms(figures.checkout.p50),
      fmt.ms(figures.checkout.p99),
      fmt.ms(figures.hold.p50),
      fmt.ms(figures.hold.p90),
      fmt.ms(figures.hold.p99),
      fmt.int(figures.openHolds),
    ]);
    return {
      title: 'Funding check on checkout creation',
      command: 'npx -y pnpm@12.21.0 bench --only funding',
      lines: [
        `${CHECKOUTS} \`partner_confirm\` checkouts per store after ${WARM_UP} warm-up ones, created one after another ` +
          'over loopback HTTP; the hold is timed inside the BFF where the checkout service calls it (account from ' +
          'its cache, re-read from the sandbox every few seconds; the ledger read and compare-and-set). Checkouts ' +
          'stay open, so the ledger ends with every hold of the run in it.',
        '',
        ...table(
          [
            'store',
            'checkout p50',
            'checkout p99',
            'funding hold p50',
            'hold p90',
            'hold p99',
            'open holds at the end',
          ],
          rows,
        ),
        ...scale.lines,
      ],
      checks: [
        ...scale.checks,
        check(
          'funding.hold.memory.p50',
          'funding check, memory store, p50',
          memory.hold.p50,
          '<=',
          1,
          fmt.ms,
        ),
        check('funding.hold.redis.p50', 'funding check, Redis store, p50', shared.hold.p50, '<=', 1, fmt.ms),
      ],
    };
  } finally {
    await redis.stop();
    await sandbox.close();
  }
}
