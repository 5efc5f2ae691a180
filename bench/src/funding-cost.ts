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

/** A BFF on `store` with the funding config, served on a loopback port, without its background workers. */
function fundingBff(sandboxUrl: string, store: Store) {
  const parsed = parseConfig(config(sandboxUrl), 'bench funding config');
  return createBff({
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
}

async function measure(sandboxUrl: string, name: string, store: Store): Promise<StoreFigures> {
  const bff = fundingBff(sandboxUrl, store);
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

/** The ledger's cost beside what it holds: one account's open holds, and a hold timed among them. */
export interface LedgerScaleFigures {
  /** Open holds asked for, and those made before the fill's time was up. */
  asked: number;
  open: number;
  fillSeconds: number;
  /** One more hold (then given back, so the ledger keeps its size): p50, p99 of those made. */
  hold: { p50: number; p99: number };
  /** Holds the store refused (a command past its wait: the record too large to move in time), filling and timed. */
  refused: number;
}

/**
 * The funding ledger of one account with `openHolds` open holds (firm ones, as `direct` checkouts make: the unpaid
 * caps stop at 1,000), made through the funding port the checkout service calls, for at most `fillSeconds`; then
 * `timed` holds, each timed and given back. Measures the ledger, not the HTTP around it.
 */
export async function ledgerScale(
  sandboxUrl: string,
  store: Store,
  settings: { openHolds: number; timed: number; fillSeconds: number },
): Promise<LedgerScaleFigures> {
  const bff = fundingBff(sandboxUrl, store);
  try {
    const widget = bff.widgets.get(WIDGET) as NonNullable<ReturnType<typeof bff.widgets.get>>;
    const { balance } = await bff.funding.account(widget);
    // One minor unit each: ten thousand of them fit any balance the sandbox gives.
    const wholesale = { amountMinor: 1, currency: balance.currency };
    const opener = (id: string) => ({
      status: 'placing' as const,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      address: `bench-${id}`,
      session: `bench-${id}`,
    });
    const started = performance.now();
    const deadline = started + settings.fillSeconds * 1000;
    let open = 0;
    let refused = 0;
    // A refusal is counted and the same hold asked again (one hold per checkout id), as a traveller's retry would.
    const refusedBy = (error: unknown) => {
      if (!(error instanceof Error) || error.name !== 'StoreUnavailableError') throw error;
      refused += 1;
      return false;
    };
    while (open < settings.openHolds && performance.now() < deadline) {
      const id = `fill-${open}`;
      const made = await bff.funding.hold(widget, id, wholesale, opener(id)).then(() => true, refusedBy);
      if (made) open += 1;
    }
    const fillSeconds = (performance.now() - started) / 1000;
    const times: number[] = [];
    for (let index = 0; index < settings.timed; index += 1) {
      const id = `timed-${index}`;
      const holdStarted = performance.now();
      const made = await bff.funding.hold(widget, id, wholesale, opener(id)).then(() => true, refusedBy);
      if (made) times.push(performance.now() - holdStarted);
      await bff.funding.release(widget, id).catch(refusedBy);
    }
    times.sort((a, b) => a - b);
    return {
      asked: settings.openHolds,
      open,
      fillSeconds,
      hold: { p50: percentile(times, 50), p99: percentile(times, 99) },
      refused,
    };
  } finally {
    await bff.close();
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
