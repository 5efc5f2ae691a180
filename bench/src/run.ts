/**
 * @module
 * `pnpm bench`: builds the widget and the demo, runs every section (or `--only a,b`), and writes the
 * dated report `bench/reports/YYYY-MM-DD.md` (a partial run writes `YYYY-MM-DD.partial.md.tmp`).
 *
 * Usage: `npx -y pnpm@12.21.0 bench [--only weight,page,lighthouse,bff,catalog,proxy,funding,budget,funnel,backlog,store-funnel,redis] [--no-build]`
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromiumPath } from '@esim-embed/e2e/browser';
import { type BacklogSettings, backlogSection } from './backlog';
import { bffLoadSection, type LoadSettings } from './bff-load';
import { budgetCostSection } from './budget-cost';
import { catalogScaleSection } from './catalog-scale';
import { startChild } from './child-process';
import { consoleWeightSection } from './console-weight';
import { fundingCostSection } from './funding-cost';
import { type FunnelSettings, funnelSection } from './funnel';
import { lighthouseSection } from './lighthouse';
import { proxyCacheSection } from './proxy-cache';
import { type RedisDeploymentSettings, redisDeploymentsSection } from './redis-deployments';
import { machineInfo, renderReport, type Section } from './report';
import { type StoreFunnelSettings, storeFunnelSection } from './store-funnel';
import { readWeekBefore } from './week-before';
import { widgetOnPageSection } from './widget-on-page';
import { weighBuild, widgetWeightSection } from './widget-weight';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PNPM = 'npx -y pnpm@12.21.0';
const ALL = [
  'weight',
  'page',
  'lighthouse',
  'bff',
  'catalog',
  'proxy',
  'funding',
  'budget',
  'funnel',
  'backlog',
  'store-funnel',
  'redis',
] as const;
type SectionName = (typeof ALL)[number];

/** Bounded loads: 20 connections, 3 rounds of 2 s per server, then a 500-request sequential probe. */
const LOAD: LoadSettings = { connections: 20, durationSeconds: 2, rounds: 3, probeRequests: 500 };
/** The funnel: 40 travellers for 30 s, at most 2,000 purchases begun. */
const FUNNEL: FunnelSettings = { travellers: 40, durationSeconds: 30, maxPurchases: 2_000 };

/**
 * The backlog: 100,000 deliveries pending for a dead endpoint; 60 purchases a phase (at most a minute), 10 s idle,
 * at most 90 s of drain; two instances on Redis and one on the embedded store.
 */
const BACKLOG: BacklogSettings = {
  backlog: 100_000,
  purchases: 60,
  phaseSeconds: 60,
  idleSeconds: 10,
  drainSeconds: 90,
  stores: ['redis', 'embedded'],
};

/**
 * The store funnel: one instance on the embedded store, one on the memory store; after a 5 s warm-up each, two
 * runs per store of 40 travellers for 20 s (at most 1,000 purchases begun a run), alternating; the embedded
 * store's bytes on disk after 1,000 purchases on its instance.
 */
const STORE_FUNNEL: StoreFunnelSettings = {
  run: { travellers: 40, durationSeconds: 20, maxPurchases: 1_000 },
  rounds: 2,
  warmUp: { travellers: 10, durationSeconds: 5, maxPurchases: 100 },
  diskPurchases: 1_000,
};

/**
 * The Redis deployments: two then four instances on each of one Redis, Sentinel and a cluster; after a 5 s
 * warm-up each, two runs per deployment of 40 travellers for 15 s (at most 600 purchases begun a run),
 * alternating; then the funding ledger with 10 and with 10,000 open holds (filled for at most 120 s), 200 holds
 * timed on each.
 */
const REDIS_DEPLOYMENTS: RedisDeploymentSettings = {
  run: { travellers: 40, durationSeconds: 15, maxPurchases: 600 },
  rounds: 2,
  warmUp: { travellers: 10, durationSeconds: 5, maxPurchases: 100 },
  instanceCounts: [2, 4],
  ledger: { small: 10, large: 10_000, timed: 200, fillSeconds: 120 },
};

/** Builds a package; a failing build (e.g. a broken size budget) is reported but measured all the same. */
function build(filter: string, output: string): void {
  try {
    execSync(`${PNPM} --filter ${filter} build`, { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    if (!existsSync(`${REPO}${output}`)) throw new Error(`${filter} did not build`, { cause: error });
    console.warn(`[bench] ${filter} build failed, measuring the output it left: ${String(error)}`);
  }
}

/**
 * The servers under test run on the Node.js production runs (`scripts/production-node.mjs`, fetched once), as
 * the harness's own Node.js may be an older line: `BENCH_NODE=current` keeps them on the harness's, any other
 * value names a binary.
 */
function chooseServerNode(): void {
  if (process.env.BENCH_NODE === 'current') {
    delete process.env.BENCH_NODE;
    return;
  }
  if (process.env.BENCH_NODE) return;
  process.env.BENCH_NODE = execFileSync(process.execPath, ['scripts/production-node.mjs'], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, 'no-build': { type: 'boolean', default: false } },
  });
  const only = values.only?.split(',').map((name) => name.trim()) as SectionName[] | undefined;
  const unknown = only?.filter((name) => !(ALL as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0)
    throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  const wanted = new Set<SectionName>(only ?? ALL);
  const started = performance.now();
  chooseServerNode();
  const machine = machineInfo(chromiumPath());
  const profileDir = process.env.BENCH_PROFILE_DIR;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  if (!values['no-build']) {
    console.log('[bench] building the widget and the demo');
    build('@esim-embed/widget', 'packages/widget/dist/widget.js');
    build('@esim-embed/demo', 'demo/dist/index.html');
    build('@esim-embed/console', 'packages/console/dist/index.html');
  }

  const sections: Section[] = [];
  if (wanted.has('weight') || wanted.has('page')) {
    const weights = weighBuild();
    if (wanted.has('weight')) sections.push(widgetWeightSection(weights), consoleWeightSection());
    if (wanted.has('page')) sections.push(await widgetOnPageSection(weights));
  }
  if (wanted.has('lighthouse')) sections.push(await lighthouseSection());
  if (wanted.has('bff') || wanted.has('catalog') || wanted.has('proxy')) {
    const load = await startChild<unknown>('load-runner.ts', {});
    try {
      if (wanted.has('bff')) sections.push(await bffLoadSection(load, LOAD));
      if (wanted.has('catalog')) sections.push(await catalogScaleSection(load));
      if (wanted.has('proxy'))
        sections.push(await proxyCacheSection(load, { connections: 20, durationSeconds: 5 }));
    } finally {
      await load.stop();
    }
  }
  if (wanted.has('funding')) sections.push(await fundingCostSection());
  if (wanted.has('budget')) sections.push(await budgetCostSection());
  if (wanted.has('funnel')) sections.push(await funnelSection(FUNNEL));
  if (wanted.has('backlog')) sections.push(await backlogSection(BACKLOG));
  if (wanted.has('store-funnel')) sections.push(await storeFunnelSection(STORE_FUNNEL));
  if (wanted.has('redis')) sections.push(await redisDeploymentsSection(REDIS_DEPLOYMENTS));

  const date = new Date().toISOString().slice(0, 10);
  const folder = fileURLToPath(new URL('../reports/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  const file = `${folder}${date}${only ? '.partial.md.tmp' : '.md'}`;
  const report = renderReport({
    date,
    machine,
    sections,
    durationSeconds: (performance.now() - started) / 1000,
    command: `npx -y pnpm@12.21.0 bench${only ? ` --only ${only.join(',')}` : ''}`,
    weekBefore: readWeekBefore(folder, date),
  });
  writeFileSync(file, report);
  const checks = sections.flatMap((section) => section.checks);
  for (const c of checks)
    console.log(`${c.pass ? 'PASS' : 'MISS'}  ${c.label}: ${c.value} (target ${c.target})`);
  console.log(`[bench] report: ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
