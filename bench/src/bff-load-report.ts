/**
 * @module
 * The BFF load section's part of the report: the per-server table, the ratios, the keep-alive pool's use,
 * and the targets checked against them (measured by `bff-load.ts`).
 */
import type { LoadSettings, PoolUse, RouteFigures, RouteLoad, ServerFigures } from './bff-load-figures';
import { type Check, check, fmt, type Section, table } from './report';

/**
 * The BFF's upstream pool keeps at most 64 connections per origin (`upstream-pool.ts`): more in one run
 * would mean no reuse.
 */
const UPSTREAM_POOL_CONNECTIONS = 64;

/** The section for the routes measured, with its checks. */
export function renderBffLoad(
  routes: RouteLoad[],
  results: Map<string, RouteFigures>,
  pool: PoolUse[],
  settings: LoadSettings,
  code: string,
): Section {
  const rows: (string | number)[][] = [];
  const checks: Check[] = [];
  let bffFailures = 0;
  const row = (route: string, server: string, r: ServerFigures | null) =>
    r === null
      ? [route, server, '— (no upstream call: sessions are signed locally)', '', '', '', '', '', '', '']
      : [
          route,
          server,
          fmt.int(r.perCpuSecond),
          fmt.int(r.best.rps),
          r.rounds.map(fmt.int).join(' / '),
          fmt.ms(r.best.loaded.p50),
          fmt.ms(r.best.loaded.p99),
          fmt.ms(r.probe.latency.p50),
          fmt.ms(r.probe.latency.p99),
          r.failures === 0
            ? '0'
            : `**${r.failures}** (${JSON.stringify({ ...r.best.statuses, ...r.probe.statuses })})`,
        ];
  const ratios: (string | number)[][] = [];
  for (const route of routes) {
    const result = results.get(route.name);
    if (!result) continue;
    bffFailures += result.bff.failures;
    rows.push(
      row(`\`${route.label}\``, 'BFF', result.bff),
      row('', 'bare Hono, same bytes', result.bare),
      row('', 'bare Hono, same bytes and headers', result.bareWithHeaders),
      row('', 'sandbox upstream', result.upstream),
    );
    const rpsRatio = result.bff.perCpuSecond / result.bare.perCpuSecond;
    const wallRatio = result.bff.best.rps / result.bare.best.rps;
    const added = result.upstream
      ? result.bff.probe.latency.p50 - result.upstream.probe.latency.p50
      : Number.NaN;
    ratios.push([
      `\`${route.label}\``,
      fmt.percent(rpsRatio),
      fmt.percent(result.bareWithHeaders.perCpuSecond / result.bare.perCpuSecond),
      fmt.percent(result.bff.perCpuSecond / result.bareWithHeaders.perCpuSecond),
      fmt.percent(wallRatio),
      result.upstream ? fmt.percent(result.bff.best.rps / result.upstream.best.rps) : '—',
      result.upstream ? fmt.ms(added) : '—',
    ]);
    if (route.rpsTarget !== undefined) {
      checks.push(
        check(
          `bff.${route.name}.rps-ratio`,
          `${route.label}: BFF / bare with the same bytes and headers, req/s (per CPU-second)`,
          result.bff.perCpuSecond / result.bareWithHeaders.perCpuSecond,
          '>=',
          route.rpsTarget,
          fmt.percent,
        ),
      );
    }
    if (route.addedP50Target !== undefined) {
      checks.push(
        check(
          `bff.${route.name}.added-p50`,
          `${route.label}: BFF − upstream p50`,
          added,
          '<=',
          route.addedP50Target,
          fmt.ms,
        ),
      );
    }
  }
  if (pool.length > 0) {
    checks.push(
      check(
        'bff.upstream-pool',
        'upstream TCP connections opened during one BFF run (keep-alive pool)',
        Math.max(...pool.map((use) => use.mostInOneRun)),
        '<=',
        UPSTREAM_POOL_CONNECTIONS,
        fmt.int,
      ),
    );
  }
  checks.push(
    check('bff.failures', 'failed or unexpected answers in the BFF runs', bffFailures, '<=', 0, fmt.int),
  );
  return {
    title: 'BFF throughput and latency',
    command: 'npx -y pnpm@12.21.0 bench --only bff',
    lines: [
      `Each server runs in its own Node process; autocannon runs in a third: ${settings.connections} connections,`,
      `${settings.rounds} interleaved rounds of ${settings.durationSeconds} s per server (bare → bare with headers → BFF → upstream, 1 s warm-up`,
      'before the first); the best round of each server counts, so that a burst from a neighbour on a shared',
      'machine costs one round rather than one server (“loaded” latencies are those of that round, whole ms).',
      `Then a probe sends ${settings.probeRequests} requests one at a time on one keep-alive connection (“probe”, sub-ms): the`,
      'latency a single traveller sees. The BFF uses the bench config (`bench/src/bench-config.ts`): limits at',
      'their maximum, one trusted proxy hop (the sessions run varies `X-Forwarded-For`), status polls passed',
      'through to the upstream (`statusCacheMs: 0`, orders held in `paid`), 40 sessions and 100 checkouts',
      `taken in turn. Plans are those of \`${code}\`, the most popular destination. The upstream column is the`,
      'sandbox answering the call the BFF would make (products page, offers of the destination, `POST /quotes`,',
      '`GET /orders/{id}`).',
      '',
      ...table(
        [
          'route',
          'server',
          'req/s per CPU-second',
          'req/s (best round)',
          'req/s of each round',
          'p50 loaded',
          'p99 loaded',
          'p50 probe',
          'p99 probe',
          'failed',
        ],
        rows,
      ),
      ...table(
        [
          'route',
          'BFF / bare, req/s per CPU-s',
          'bare with headers / bare, per CPU-s',
          'BFF / bare with headers, per CPU-s',
          'BFF / bare, req/s (best rounds)',
          'BFF / upstream req/s',
          'BFF − upstream p50 (probe)',
        ],
        ratios,
      ),
      'The req/s targets are judged on requests per CPU-second of the server process (`process.cpuUsage()`',
      'around each run): the throughput each server reaches on a core of its own, which a busy shared machine',
      'does not distort; wall-clock req/s of the best round are shown beside them. Latency targets use the probe.',
      '“Bare Hono, same bytes and headers” is the bare route writing every header of the BFF’s answer as well',
      '(security headers, CORS, `Vary`, request id, `ETag`, cache policy): how much of the gap to bare is',
      'the answer’s header bytes alone, which any route answering like the BFF pays whatever it does.',
      '',
      'Upstream connections: the sandbox counts the TCP connections it accepts during each BFF run. undici keeps',
      'at most 64 per origin; the sandbox (Node’s default 5 s keep-alive) closes idle ones while the other',
      'servers are measured, so each round reopens about one per load connection and then reuses it.',
      '',
      ...table(
        [
          'BFF runs of',
          'requests to the BFF',
          'new upstream TCP connections',
          'most in one run',
          'requests per new connection',
        ],
        pool.map((use) => [
          use.route,
          fmt.int(use.bffRequests),
          fmt.int(use.connectionsOpened),
          fmt.int(use.mostInOneRun),
          use.connectionsOpened === 0
            ? '— (no upstream call)'
            : fmt.int(use.bffRequests / use.connectionsOpened),
        ]),
      ),
    ],
    checks,
  };
}
