/**
 * @module
 * BFF throughput and latency: seven widget routes, each beside (a) a bare Hono route on `@hono/node-server`
 * answering the same bytes — the limit —, (a′) that route writing the BFF answer's headers too, and (b) the
 * sandbox answering the corresponding upstream call directly. Every server runs in its own process and the
 * load comes from a third one. Also counts the TCP connections the sandbox accepts while the BFF calls it,
 * to show the keep-alive pool at work.
 *
 * Over 300 lines: servers, load and references make one measurement (the report is in bff-load-report.ts).
 */
import { SANDBOX_KEYS } from '@esim-embed/sandbox';
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import type { LoadSettings, PoolUse, RouteFigures, RouteLoad, ServerFigures } from './bff-load-figures';
import { renderBffLoad } from './bff-load-report';
import { type BenchChild, startChild } from './child-process';
import type { LoadSpec, ProbeResult, RequestVariant, ThroughputResult } from './load-spec';
import type { Section } from './report';
import { type BareRoute, WITH_HEADERS } from './servers/bare-routes';
import type { BffChildOptions, BffInfo } from './servers/bff-server';
import type { ConnectionCounts, SandboxInfo } from './servers/sandbox-server';

export type { LoadSettings };

/** One throughput run with the CPU time the server under test spent on it; a warm-up run first if asked. */
async function measured(
  load: BenchChild<unknown>,
  server: BenchChild<unknown>,
  spec: LoadSpec,
  warmUp: boolean,
): Promise<ThroughputResult> {
  if (warmUp) await load.ask<ThroughputResult>('run', { ...spec, durationSeconds: 1 });
  const before = await server.ask<number>('cpu');
  const result = await load.ask<ThroughputResult>('run', spec);
  return { ...result, serverCpuMicros: (await server.ask<number>('cpu')) - before };
}

/** Requests per CPU-second of the server: the req/s it would serve on a core of its own. */
function perCpuSecond(runs: ThroughputResult[]): number {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const micros = runs.reduce((sum, run) => sum + (run.serverCpuMicros ?? Number.NaN), 0);
  return requests / (micros / 1e6);
}

/** `BENCH_PROFILE_DIR=/tmp/prof` writes a CPU profile of the BFF during each route's runs there. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const NEVER = 24 * 60 * 60 * 1000;

/** The BFF load section: starts the sandbox, the BFF and the bare server, prepares the data, runs the loads. */
export async function bffLoadSection(load: BenchChild<unknown>, settings: LoadSettings): Promise<Section> {
  // Orders stay `paid` for the whole run, so every status poll is a live one (a finished checkout is
  // answered from the store without asking the upstream).
  const sandbox = await startChild<SandboxInfo>('servers/sandbox-server.ts', {
    offerCount: 2000,
    stepDelaysMs: { provisioning: NEVER, delivery: NEVER, completion: NEVER },
  });
  const bff = await startChild<BffInfo>(
    'servers/bff-server.ts',
    {
      config: benchConfig(sandbox.info.url),
      env: BENCH_ENV,
      // Attribution only (bench/README.md): `warn` leaves out the access-log lines, to see what they cost.
      logLevel: process.env.BENCH_BFF_LOG_LEVEL as BffChildOptions['logLevel'],
    },
    // Attribution only: `BENCH_BFF_NODE_ARGS` gives the BFF's Node.js flags (a GC setting, say) and no other server's.
    { stdout: 'ignore', nodeArgs: process.env.BENCH_BFF_NODE_ARGS?.split(' ').filter(Boolean) ?? [] },
  );
  const bares: BenchChild<{ url: string }>[] = [];
  try {
    const reads = await prepareReads(bff.info.url);
    const bare = await startChild<{ url: string }>('servers/bare-server.ts', reads.bareRoutes);
    bares.push(bare);
    const only = process.env.BENCH_BFF_ROUTES?.split(',');
    const wanted = (name: string) => !only || only.includes(name);
    const routes = readLoads(reads, bff.info.url, bare.info.url, sandbox.info.url, settings);
    const results = new Map<string, RouteFigures>();
    const pool: PoolUse[] = [];

    /** Interleaved rounds of `route` on the BFF, its bare references (served by `bareServer`) and the upstream. */
    async function measureRoute(route: RouteLoad, bareServer: BenchChild<unknown>): Promise<void> {
      console.log(`[bench] load: ${route.name}`);
      const runs = {
        bare: [] as ThroughputResult[],
        bareWithHeaders: [] as ThroughputResult[],
        bff: [] as ThroughputResult[],
        upstream: [] as ThroughputResult[],
      };
      const poolUse: PoolUse = { route: route.label, bffRequests: 0, connectionsOpened: 0, mostInOneRun: 0 };
      if (PROFILE_DIR) await bff.ask('profileStart');
      for (let round = 0; round < settings.rounds; round += 1) {
        // Interleaved rounds: a neighbour's burst on a shared machine slows one round, not one server.
        runs.bare.push(await measured(load, bareServer, route.bare, round === 0));
        runs.bareWithHeaders.push(await measured(load, bareServer, route.bareWithHeaders, round === 0));
        await sandbox.ask<ConnectionCounts>('resetConnections');
        const bffRun = await measured(load, bff, route.bff, round === 0);
        const counts = await sandbox.ask<ConnectionCounts>('resetConnections');
        runs.bff.push(bffRun);
        poolUse.bffRequests += bffRun.requests;
        poolUse.connectionsOpened += counts.accepted;
        poolUse.mostInOneRun = Math.max(poolUse.mostInOneRun, counts.accepted);
        if (route.upstream) runs.upstream.push(await measured(load, sandbox, route.upstream, round === 0));
      }
      if (PROFILE_DIR) await bff.ask('profileStop', { file: `${PROFILE_DIR}/bff-${route.name}.cpuprofile` });
      const figures = async (spec: LoadSpec, list: ThroughputResult[]): Promise<ServerFigures> => {
        const probe = await load.ask<ProbeResult>('probe', spec);
        const best = list.reduce((a, b) => (b.rps > a.rps ? b : a));
        return {
          best,
          rounds: list.map((r) => r.rps),
          perCpuSecond: perCpuSecond(list),
          probe,
          failures: list.reduce((sum, r) => sum + r.failures, probe.failures),
        };
      };
      if (route.upstream) pool.push(poolUse);
      results.set(route.name, {
        bare: await figures(route.bare, runs.bare),
        bareWithHeaders: await figures(route.bareWithHeaders, runs.bareWithHeaders),
        bff: await figures(route.bff, runs.bff),
        upstream: route.upstream ? await figures(route.upstream, runs.upstream) : null,
      });
    }

    for (const route of routes.filter((r) => wanted(r.name))) await measureRoute(route, bare);
    // The status polls need live checkouts, made only now: the checkout watch reads each of them from the
    // upstream every few seconds, work of the BFF's own that is not the reads measured above.
    if (wanted(STATUS_ROUTE)) {
      const live = await prepareCheckouts(bff.info.url, sandbox.info.url, reads);
      const bareStatus = await startChild<{ url: string }>('servers/bare-server.ts', [live.bareRoute]);
      bares.push(bareStatus);
      const status = statusLoad(live, bff.info.url, bareStatus.info.url, sandbox.info.url, settings);
      routes.push(status);
      await measureRoute(status, bareStatus);
    }
    return renderBffLoad(routes, results, pool, settings, reads.code);
  } finally {
    await Promise.all([bff.stop(), ...bares.map((child) => child.stop())]);
    await sandbox.stop();
  }
}

/** What the read routes need: sessions, the most popular destination, an offer, the bare routes' bytes. */
interface PreparedReads {
  tokens: string[];
  /** The public catalog's address at the current version (what a session names). */
  catalogPath: string;
  code: string;
  offerId: string;
  bareRoutes: BareRoute[];
}

/** What the status route needs: live checkouts, their upstream orders, the bare route's bytes. */
interface PreparedCheckouts {
  checkouts: { id: string; clientSecret: string; token: string }[];
  orderIds: string[];
  bareRoute: BareRoute;
}

/** The bench widget's start (what every page view asks first). */
const startPath = `/v1/widgets/${BENCH_WIDGET}/start`;

/** The name of the status route (measured last, on checkouts made for it). */
const STATUS_ROUTE = 'status';

const bareRoute = (
  method: 'GET' | 'POST',
  path: string,
  answer: Awaited<ReturnType<typeof call>>,
): BareRoute => ({
  method,
  path,
  status: answer.status,
  contentType: answer.contentType,
  body: answer.bytes.toString('base64'),
  headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !WRITTEN_BY_NODE.has(name))),
});

/** Headers Node's HTTP server writes itself, for the BFF and the bare route alike. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const auth = (token: string) => ({ Origin: BENCH_ORIGIN, Authorization: `Bearer ${token}` });

/** Sessions, the most popular destination, an offer; the read routes' bytes for the bare server. */
async function prepareReads(bffUrl: string): Promise<PreparedReads> {
  const sessionAnswers = await Promise.all(
    Array.from({ length: 40 }, (_, index) =>
      call(`${bffUrl}/v1/sessions`, {
        method: 'POST',
        headers: { Origin: BENCH_ORIGIN, 'X-Forwarded-For': `10.255.0.${index}` },
        body: { widgetId: BENCH_WIDGET },
      }),
    ),
  );
  const tokens: string[] = sessionAnswers.map((answer) => answer.json.data.token);
  const first = tokens[0] as string;
  const destinations = await call(`${bffUrl}/v1/destinations`, { headers: auth(first) });
  const popular = (destinations.json.data as { code: string; popularity: number | null }[])
    .filter((d) => d.popularity !== null)
    .sort((a, b) => (a.popularity ?? 0) - (b.popularity ?? 0));
  const code = popular[0]?.code ?? destinations.json.data[0].code;
  const plans = await call(`${bffUrl}/v1/destinations/${code}/plans`, { headers: auth(first) });
  const offerId: string = plans.json.data[0].offerId;
  const quote = await call(`${bffUrl}/v1/quotes`, {
    method: 'POST',
    headers: { ...auth(first), 'Idempotency-Key': 'bench-prepare-quote' },
    body: { offerId },
  });
  const session = sessionAnswers[0] as (typeof sessionAnswers)[number];
  // What the widget reads: the catalog under its public, versioned address, with no session.
  const catalogPath: string = session.json.data.catalog.path;
  const publicDestinations = await call(`${bffUrl}${catalogPath}/en/destinations`);
  const publicPlans = await call(`${bffUrl}${catalogPath}/en/plans/${code}`);
  // Every page view's first request: the widget's start, from the shop's page.
  const start = await call(`${bffUrl}${startPath}`, { headers: { Origin: BENCH_ORIGIN } });
  return {
    catalogPath,
    tokens,
    code,
    offerId,
    bareRoutes: [
      bareRoute('GET', `${catalogPath}/en/destinations`, publicDestinations),
      bareRoute('GET', `${catalogPath}/en/plans/${code}`, publicPlans),
      bareRoute('GET', startPath, start),
      bareRoute('GET', '/v1/destinations', destinations),
      bareRoute('GET', '/v1/destinations/:code/plans', plans),
      bareRoute('POST', '/v1/sessions', session),
      bareRoute('POST', '/v1/quotes', quote),
    ],
  };
}

/** 100 live checkouts (their orders stay `provisioning`) and their upstream orders; the status route's bytes. */
async function prepareCheckouts(
  bffUrl: string,
  sandboxUrl: string,
  reads: PreparedReads,
): Promise<PreparedCheckouts> {
  const checkouts: PreparedCheckouts['checkouts'] = [];
  for (let batch = 0; batch < 10; batch += 1) {
    const created = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        // One session per concurrent checkout: a session quoting the same offer twice at once gets one live quote back.
        const token = reads.tokens[index] as string;
        const quoteAnswer = await call(`${bffUrl}/v1/quotes`, {
          method: 'POST',
          headers: { ...auth(token), 'Idempotency-Key': `bench-prepare-q-${batch}-${index}` },
          body: { offerId: reads.offerId },
        });
        const checkout = await call(`${bffUrl}/v1/checkouts`, {
          method: 'POST',
          headers: { ...auth(token), 'Idempotency-Key': `bench-prepare-c-${batch}-${index}` },
          body: { quoteId: quoteAnswer.json.data.id, locale: 'en', termsAccepted: true },
        });
        return {
          id: checkout.json.data.id as string,
          clientSecret: checkout.json.data.clientSecret as string,
          token,
        };
      }),
    );
    checkouts.push(...created);
  }
  const firstCheckout = checkouts[0] as PreparedCheckouts['checkouts'][number];
  const status = await call(`${bffUrl}/v1/checkouts/${firstCheckout.id}`, {
    headers: { ...auth(firstCheckout.token), 'X-Checkout-Secret': firstCheckout.clientSecret },
  });
  if (status.json.data.status !== 'provisioning') {
    throw new Error(`a bench checkout should stay provisioning, it is ${status.json.data.status}`);
  }
  const orders = await call(`${sandboxUrl}/orders?limit=100`, {
    headers: { 'X-Api-Key': SANDBOX_KEYS.lagoon },
  });
  return {
    checkouts,
    orderIds: (orders.json.data as { id: string }[]).map((order) => order.id),
    bareRoute: bareRoute('GET', '/v1/checkouts/:id', status),
  };
}

/** What every load run shares: its connections, duration and probe. */
const baseLoad = (settings: LoadSettings) => ({
  connections: settings.connections,
  durationSeconds: settings.durationSeconds,
  warmupSeconds: 0,
  probeRequests: settings.probeRequests,
});

const UPSTREAM_KEY = { 'X-Api-Key': SANDBOX_KEYS.lagoon };

/** The route with its bare reference that writes the BFF answer's headers too. */
const withBareHeaders = (route: Omit<RouteLoad, 'bareWithHeaders'>): RouteLoad => ({
  ...route,
  bareWithHeaders: {
    ...route.bare,
    variants: route.bare.variants.map((variant) => ({ ...variant, path: `${WITH_HEADERS}${variant.path}` })),
  },
});

/** The read routes (every route but the status polls), in the order they are measured. */
function readLoads(
  prepared: PreparedReads,
  bffUrl: string,
  bareUrl: string,
  sandboxUrl: string,
  settings: LoadSettings,
): RouteLoad[] {
  const base = baseLoad(settings);
  const withTokens = (path: string): RequestVariant[] =>
    prepared.tokens.map((token) => ({
      path,
      headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${token}` },
    }));
  const plansPath = `/v1/destinations/${prepared.code}/plans`;
  const quoteBody = JSON.stringify({ offerId: prepared.offerId });
  const publicPath = (rest: string) => `${prepared.catalogPath}/en/${rest}`;
  /**
   * A catalog read: the BFF's requests, the bare route at `barePath`, the upstream call behind it; target 80 % of
   * the bare route with the same headers, 100 % for the public catalog (answered from kept bytes, issue 27), 60 %
   * for the reads with a session token (issue 40's goal: each read's session checked before its kept bytes).
   */
  const catalogRead = (
    name: string,
    label: string,
    variants: RequestVariant[],
    barePath: string,
    upstreamPath: string,
    rpsTarget = 0.8,
  ): Omit<RouteLoad, 'bareWithHeaders'> => ({
    name,
    label,
    bff: { ...base, baseUrl: bffUrl, method: 'GET', variants },
    bare: { ...base, baseUrl: bareUrl, method: 'GET', variants: [{ path: barePath }] },
    upstream: {
      ...base,
      baseUrl: sandboxUrl,
      method: 'GET',
      headers: UPSTREAM_KEY,
      variants: [{ path: upstreamPath }],
    },
    rpsTarget,
  });
  const offersPath = `/catalog/offers?country=${prepared.code}`;
  const loads: Omit<RouteLoad, 'bareWithHeaders'>[] = [
    {
      // A page view each, from visitors of their own (the start is limited per address).
      name: 'start',
      label: 'GET /v1/widgets/{widget}/start',
      bff: {
        ...base,
        baseUrl: bffUrl,
        method: 'GET',
        headers: { Origin: BENCH_ORIGIN },
        forwardedFor: true,
        variants: [{ path: startPath }],
      },
      bare: { ...base, baseUrl: bareUrl, method: 'GET', variants: [{ path: startPath }] },
      upstream: null,
      rpsTarget: 0.9,
    },
    catalogRead(
      'public-destinations',
      'GET /v1/catalog/{widget}/{version}/en/destinations',
      [{ path: publicPath('destinations') }],
      publicPath('destinations'),
      '/catalog/products?limit=100',
      1,
    ),
    catalogRead(
      'public-plans',
      `GET /v1/catalog/{widget}/{version}/en/plans/${prepared.code}`,
      [{ path: publicPath(`plans/${prepared.code}`) }],
      publicPath(`plans/${prepared.code}`),
      offersPath,
      1,
    ),
    catalogRead(
      'destinations',
      'GET /v1/destinations',
      withTokens('/v1/destinations'),
      '/v1/destinations',
      '/catalog/products?limit=100',
      0.6,
    ),
    catalogRead(
      'plans',
      `GET /v1/destinations/${prepared.code}/plans`,
      withTokens(plansPath),
      plansPath,
      offersPath,
      0.6,
    ),
    {
      name: 'sessions',
      label: 'POST /v1/sessions',
      bff: {
        ...base,
        baseUrl: bffUrl,
        method: 'POST',
        headers: { Origin: BENCH_ORIGIN },
        body: JSON.stringify({ widgetId: BENCH_WIDGET }),
        forwardedFor: true,
        variants: [{ path: '/v1/sessions' }],
      },
      bare: { ...base, baseUrl: bareUrl, method: 'POST', body: '{}', variants: [{ path: '/v1/sessions' }] },
      upstream: null,
      // Issue 40's goal for a session (once per purchase).
      rpsTarget: 0.6,
    },
    {
      name: 'quotes',
      label: 'POST /v1/quotes',
      bff: {
        ...base,
        baseUrl: bffUrl,
        method: 'POST',
        body: quoteBody,
        idempotencyKey: true,
        variants: withTokens('/v1/quotes'),
      },
      bare: {
        ...base,
        baseUrl: bareUrl,
        method: 'POST',
        body: quoteBody,
        variants: [{ path: '/v1/quotes' }],
      },
      upstream: {
        ...base,
        baseUrl: sandboxUrl,
        method: 'POST',
        headers: UPSTREAM_KEY,
        body: quoteBody,
        idempotencyKey: true,
        variants: [{ path: '/quotes' }],
      },
    },
  ];
  return loads.map(withBareHeaders);
}

/** The status polls of live checkouts (`bareUrl`: the bare server that answers the status route). */
function statusLoad(
  live: PreparedCheckouts,
  bffUrl: string,
  bareUrl: string,
  sandboxUrl: string,
  settings: LoadSettings,
): RouteLoad {
  const base = baseLoad(settings);
  const variants = live.checkouts.map((checkout) => ({
    path: `/v1/checkouts/${checkout.id}`,
    headers: {
      Origin: BENCH_ORIGIN,
      Authorization: `Bearer ${checkout.token}`,
      'X-Checkout-Secret': checkout.clientSecret,
    },
  }));
  return withBareHeaders({
    name: STATUS_ROUTE,
    label: 'GET /v1/checkouts/{id}',
    bff: { ...base, baseUrl: bffUrl, method: 'GET', variants },
    bare: { ...base, baseUrl: bareUrl, method: 'GET', variants: variants.map(({ path }) => ({ path })) },
    upstream: {
      ...base,
      baseUrl: sandboxUrl,
      method: 'GET',
      headers: UPSTREAM_KEY,
      variants: live.orderIds.map((id) => ({ path: `/orders/${id}` })),
    },
    addedP50Target: 1,
  });
}
