/**
 * @module
 * Catalog scale: sandbox catalogs of 1k, 10k and 100k offers; for each, a fresh BFF process times one full
 * sync (every product and offer page, the destination index and the price digest) and reports its memory,
 * then serves destinations and plans under the probe and a short load. Sync should grow linearly with
 * the catalog, serving should not grow at all (the views are projected once per snapshot and locale).
 */
import { BENCH_ENV, BENCH_ORIGIN, BENCH_WIDGET, benchConfig } from './bench-config';
import { call } from './bench-http';
import { type BenchChild, startChild } from './child-process';
import type { LoadSpec, ProbeResult, ThroughputResult } from './load-spec';
import { check, fmt, type Section, table } from './report';
import type { BffInfo, SyncFigures } from './servers/bff-server';
import type { SandboxInfo } from './servers/sandbox-server';

/** One catalog size's figures. */
interface ScalePoint {
  offers: number;
  sandboxStartMs: number;
  /** The first sync in a fresh process (its memory figures count). */
  sync: SyncFigures;
  /** A second full sync once the code is warm (its time counts for linearity). */
  warmSyncMs: number;
  destinationsBytes: number;
  plansBytes: number;
  planCount: number;
  code: string;
  destinations: { probe: ProbeResult; run: ThroughputResult };
  plans: { probe: ProbeResult; run: ThroughputResult };
}

/** The sizes measured. */
export const CATALOG_SIZES = [1_000, 10_000, 100_000];

async function measureSize(load: BenchChild<unknown>, offers: number): Promise<ScalePoint> {
  const sandbox = await startChild<SandboxInfo>('servers/sandbox-server.ts', { offerCount: offers });
  try {
    const bff = await startChild<BffInfo>(
      'servers/bff-server.ts',
      { config: benchConfig(sandbox.info.url), env: BENCH_ENV, startCatalogs: false },
      { stdout: 'ignore', nodeArgs: ['--expose-gc'] },
    );
    try {
      const sync = await bff.ask<SyncFigures>('sync', { widgetId: BENCH_WIDGET });
      const warm = await bff.ask<SyncFigures>('sync', { widgetId: BENCH_WIDGET });
      const session = await call(`${bff.info.url}/v1/sessions`, {
        method: 'POST',
        headers: { Origin: BENCH_ORIGIN },
        body: { widgetId: BENCH_WIDGET },
      });
      const headers = { Origin: BENCH_ORIGIN, Authorization: `Bearer ${session.json.data.token}` };
      const destinations = await call(`${bff.info.url}/v1/destinations`, { headers });
      // The same destination at every size (the most popular one), so its plans grow with the catalog.
      const popular = (destinations.json.data as { code: string; popularity: number | null }[])
        .filter((d) => d.popularity !== null)
        .sort((a, b) => (a.popularity ?? 0) - (b.popularity ?? 0));
      const code = popular[0]?.code ?? 'DE';
      const plans = await call(`${bff.info.url}/v1/destinations/${code}/plans`, { headers });
      const spec = (path: string): LoadSpec => ({
        baseUrl: bff.info.url,
        method: 'GET',
        variants: [{ path, headers }],
        connections: 10,
        durationSeconds: 2,
        warmupSeconds: 1,
        probeRequests: 300,
      });
      const destinationsSpec = spec('/v1/destinations');
      const plansSpec = spec(`/v1/destinations/${code}/plans`);
      return {
        offers,
        sandboxStartMs: sandbox.info.startMs,
        sync,
        warmSyncMs: warm.durationMs,
        destinationsBytes: destinations.bytes.length,
        plansBytes: plans.bytes.length,
        planCount: plans.json.data.length,
        code,
        // The run (with its warm-up) first, so that the probe meets warm code.
        destinations: {
          run: await load.ask<ThroughputResult>('run', destinationsSpec),
          probe: await load.ask<ProbeResult>('probe', destinationsSpec),
        },
        plans: {
          run: await load.ask<ThroughputResult>('run', plansSpec),
          probe: await load.ask<ProbeResult>('probe', plansSpec),
        },
      };
    } finally {
      await bff.stop();
    }
  } finally {
    await sandbox.stop();
  }
}

/** The catalog-scale section. */
export async function catalogScaleSection(
  load: BenchChild<unknown>,
  sizes = CATALOG_SIZES,
): Promise<Section> {
  const points: ScalePoint[] = [];
  for (const offers of sizes) {
    console.log(`[bench] catalog scale: ${offers} offers`);
    points.push(await measureSize(load, offers));
  }
  const first = points[0] as ScalePoint;
  const last = points[points.length - 1] as ScalePoint;
  const middle = points[points.length - 2] ?? first;
  const perOffer = (p: ScalePoint) => p.warmSyncMs / p.offers;
  const syncGrowth = perOffer(last) / perOffer(middle);
  const servingGrowth = last.destinations.probe.latency.p50 / first.destinations.probe.latency.p50;
  return {
    title: 'Catalog scale',
    command: 'npx -y pnpm@12.21.0 bench --only catalog',
    lines: [
      'For each size a sandbox with that many offers and a fresh BFF process (`--expose-gc`) that has not',
      'loaded its catalog. A sync is one forced full refresh: capabilities and account, every product and',
      'offer page (200 a page, each parsed by the shared schemas), the destination index and the price digest.',
      'The first sync runs on cold code; a second one, on warm code, is the one held to linearity. Peak RSS is',
      'the process’s `maxRSS` after the first sync; retained heap is after a full GC. Serving is measured with',
      'a 2 s run of 10 connections (after 1 s of warm-up) and then the probe (300 sequential requests); the',
      'plans are those of the most popular destination, whose plan list grows with the catalog.',
      '',
      ...table(
        [
          'offers',
          'first sync (cold)',
          'sync (warm)',
          'warm, per 1k offers',
          'RSS before → peak',
          'retained heap',
          'sandbox start',
        ],
        points.map((p) => [
          fmt.int(p.offers),
          fmt.ms(p.sync.durationMs),
          fmt.ms(p.warmSyncMs),
          fmt.ms((p.warmSyncMs / p.offers) * 1000),
          `${fmt.mb(p.sync.rssBefore)} → ${fmt.mb(p.sync.maxRss)}`,
          `${fmt.mb(p.sync.heapBefore)} → ${fmt.mb(p.sync.heapAfter)}`,
          fmt.ms(p.sandboxStartMs),
        ]),
      ),
      ...table(
        [
          'offers',
          'destinations: bytes',
          'p50 / p99 probe',
          'req/s',
          'plans: code, count, bytes',
          'p50 / p99 probe',
          'req/s',
        ],
        points.map((p) => [
          fmt.int(p.offers),
          fmt.kb(p.destinationsBytes),
          `${fmt.ms(p.destinations.probe.latency.p50)} / ${fmt.ms(p.destinations.probe.latency.p99)}`,
          fmt.int(p.destinations.run.rps),
          `${p.code}, ${p.planCount}, ${fmt.kb(p.plansBytes)}`,
          `${fmt.ms(p.plans.probe.latency.p50)} / ${fmt.ms(p.plans.probe.latency.p99)}`,
          fmt.int(p.plans.run.rps),
        ]),
      ),
    ],
    checks: [
      check(
        'catalog.sync-linear',
        `sync time per offer, ${fmt.int(last.offers)} vs ${fmt.int(middle.offers)} offers (linear: ≈ 1×)`,
        syncGrowth,
        '<=',
        1.5,
        (n) => `${n.toFixed(2)}×`,
      ),
      check(
        'catalog.serving-flat',
        `destinations p50, ${fmt.int(last.offers)} vs ${fmt.int(first.offers)} offers (flat: ≈ 1×)`,
        servingGrowth,
        '<=',
        1.5,
        (n) => `${n.toFixed(2)}×`,
      ),
    ],
  };
}
