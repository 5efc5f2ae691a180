/**
 * @module
 * The purchase funnel on the three ways to run Redis (`--only redis`): one redis-server, a primary with a
 * replica found through a Sentinel, and a Redis Cluster of three primaries with a replica each — each with two
 * and then four BFF instances (child processes) behind the funnel's round-robin. The same whole purchases as the
 * capacity funnel (`funnel.ts`, `driveFunnel`), the runs alternating between the deployments so that a
 * neighbour's burst on this shared machine falls on all three. Reported per deployment and instance count:
 * purchases per BFF CPU-second (the instances' user + system CPU), that figure as a share of one Redis's with as
 * many instances (goal: the cluster ≥ 90 %), p99 of the checkout create, of the status read and of every request.
 * Then the funding ledger's cost on one Redis: a hold among 10 open holds of one account against one among
 * 10,000 (`funding-cost.ts`, `ledgerScale`; goal: flat). Bounded in travellers, purchases and time; loopback only.
 */
import { randomBytes } from 'node:crypto';
import { createRedisStore, type RedisTarget } from '@esim-embed/bff';
import {
  type RunningRedis,
  type RunningRedisCluster,
  startRedisCluster,
  startRedisSentinel,
  startRedisServer,
} from '@esim-embed/bff/testing';
import { startSandbox } from '@esim-embed/sandbox';
import { BENCH_ENV } from './bench-config';
import { type BenchChild, startChild } from './child-process';
import { type LedgerScaleFigures, ledgerScale } from './funding-cost';
import {
  driveFunnel,
  emptyFunnelRun,
  type FunnelRun,
  type FunnelSettings,
  funnelConfig,
  startFunnelSandbox,
  stepLatencies,
} from './funnel';
import { percentile } from './load-spec';
import { check, fmt, type Section, table } from './report';
import type { BffChildOptions, BffInfo } from './servers/bff-server';

/** The section's bounds. */
export interface RedisDeploymentSettings {
  /** One measured run against one deployment's instances. */
  run: FunnelSettings;
  /** Measured runs per deployment and instance count, alternating between the deployments. */
  rounds: number;
  /** An unmeasured run against each deployment's instances first. */
  warmUp: FunnelSettings;
  /** How many BFF instances share each deployment, one count after the other. */
  instanceCounts: number[];
  /** The ledger: open holds of the small and the large account, holds timed among them, the fill's time bound. */
  ledger: { small: number; large: number; timed: number; fillSeconds: number };
}

type Deployment = 'one Redis' | 'Sentinel' | 'cluster';
const DEPLOYMENTS: readonly Deployment[] = ['one Redis', 'Sentinel', 'cluster'];
/** `BENCH_PROFILE_DIR=/tmp/prof` writes a CPU profile of each instance over its measured runs there. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** The cluster's purchases per BFF CPU-second as a share of one Redis's, at least (issue 38). */
const CLUSTER_SHARE_GOAL = 0.9;
/** The ledger is flat when a hold among many open ones costs at most this many times one among few. */
const LEDGER_FLAT_RATIO = 1.5;

/** The running Redis deployments, each as a store target, and how to stop them all. */
async function startDeployments(): Promise<{ targets: Map<Deployment, RedisTarget>; stop(): Promise<void> }> {
  const single = await startRedisServer();
  const primary = await startRedisServer();
  const replica = await startRedisServer({ replicaOf: primary.port });
  const sentinel = await startRedisSentinel(primary.port, 'esim');
  let cluster: RunningRedisCluster | undefined;
  const servers: Array<RunningRedis | { stop(): Promise<void> }> = [single, primary, replica, sentinel];
  try {
    cluster = await startRedisCluster();
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  const targets = new Map<Deployment, RedisTarget>([
    ['one Redis', { kind: 'url', url: single.url }],
    [
      'Sentinel',
      {
        kind: 'sentinel',
        sentinels: [{ host: '127.0.0.1', port: sentinel.port }],
        masterName: 'esim',
        db: 0,
        tls: false,
      },
    ],
    ['cluster', cluster.target],
  ]);
  return {
    targets,
    async stop() {
      await Promise.all([...servers, cluster as RunningRedisCluster].map((server) => server.stop()));
    },
  };
}

/** What one deployment reached with one instance count. */
interface Figures {
  deployment: Deployment;
  instances: number;
  run: FunnelRun;
  cpuMsPerPurchase: number;
  purchasesPerCpuSecond: number;
  checkoutP99: number;
  statusP99: number;
  requestP99: number;
}

function figures(deployment: Deployment, instances: number, run: FunnelRun): Figures {
  const steps = stepLatencies(run);
  const p99Of = (step: string) => steps.find((row) => row.step === step)?.p99 ?? Number.NaN;
  const every = Object.values(run.timings)
    .flat()
    .sort((a, b) => a - b);
  return {
    deployment,
    instances,
    run,
    cpuMsPerPurchase: (run.cpuSeconds * 1000) / run.purchases,
    purchasesPerCpuSecond: run.purchases / run.cpuSeconds,
    checkoutP99: p99Of('checkout'),
    statusP99: p99Of('status'),
    requestP99: percentile(every, 99),
  };
}

/** `count` instances on each deployment, warmed up, then `rounds` runs alternating between the deployments. */
async function measureCount(
  sandboxUrl: string,
  targets: Map<Deployment, RedisTarget>,
  count: number,
  settings: RedisDeploymentSettings,
): Promise<Figures[]> {
  const sessionSecret = randomBytes(32).toString('base64url');
  const instances = new Map<Deployment, BenchChild<BffInfo>[]>();
  try {
    for (const deployment of DEPLOYMENTS) {
      const options = {
        config: funnelConfig(sandboxUrl),
        env: BENCH_ENV,
        sessionSecret,
        redisTarget: targets.get(deployment),
        logLevel: 'warn',
      } satisfies BffChildOptions;
      instances.set(
        deployment,
        await Promise.all(
          Array.from({ length: count }, () =>
            startChild<BffInfo>('servers/bff-server.ts', options, { stdout: 'ignore' }),
          ),
        ),
      );
    }
    const on = (deployment: Deployment) => instances.get(deployment) as BenchChild<BffInfo>[];
    for (const deployment of DEPLOYMENTS) await driveFunnel(on(deployment), settings.warmUp);
    const runs = new Map(DEPLOYMENTS.map((deployment) => [deployment, emptyFunnelRun()]));
    const everyInstance = [...instances.values()].flat();
    if (PROFILE_DIR) await Promise.all(everyInstance.map((child) => child.ask('profileStart')));
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const deployment of DEPLOYMENTS) {
        console.log(
          `[bench] redis: ${count} instances, round ${round} of ${settings.rounds} on ${deployment}`,
        );
        await driveFunnel(on(deployment), settings.run, runs.get(deployment));
      }
    }
    if (PROFILE_DIR) {
      for (const deployment of DEPLOYMENTS) {
        for (const [index, child] of on(deployment).entries()) {
          const name = `redis-${deployment.replace(' ', '-').toLowerCase()}-${count}-${index + 1}`;
          await child.ask('profileStop', { file: `${PROFILE_DIR}/${name}.cpuprofile` });
        }
      }
    }
    return DEPLOYMENTS.map((deployment) => figures(deployment, count, runs.get(deployment) as FunnelRun));
  } finally {
    await Promise.all([...instances.values()].flat().map((child) => child.stop()));
  }
}

/** The ledger's cost with few and with many open holds of one account, each on a fresh key space of one Redis. */
async function measureLedger(
  settings: RedisDeploymentSettings['ledger'],
): Promise<[LedgerScaleFigures, LedgerScaleFigures]> {
  const sandbox = await startSandbox({ offerCount: 100 });
  const redis = await startRedisServer();
  try {
    const sizes = [settings.small, settings.large];
    const measured: LedgerScaleFigures[] = [];
    for (const [index, openHolds] of sizes.entries()) {
      console.log(`[bench] redis: the funding ledger with ${fmt.int(openHolds)} open holds`);
      const store = createRedisStore({ url: `${redis.url}/${index + 1}` });
      measured.push(
        await ledgerScale(sandbox.url, store, {
          openHolds,
          timed: settings.timed,
          fillSeconds: settings.fillSeconds,
        }),
      );
    }
    return measured as [LedgerScaleFigures, LedgerScaleFigures];
  } finally {
    await redis.stop();
    await sandbox.close();
  }
}

/** The Redis deployments section of `pnpm bench` (`--only redis`). */
export async function redisDeploymentsSection(settings: RedisDeploymentSettings): Promise<Section> {
  const deployments = await startDeployments();
  const sandbox = await startFunnelSandbox();
  const measured: Figures[] = [];
  try {
    for (const count of settings.instanceCounts) {
      measured.push(...(await measureCount(sandbox.info.url, deployments.targets, count, settings)));
    }
  } finally {
    await sandbox.stop();
    await deployments.stop();
  }
  const ledger = await measureLedger(settings.ledger);
  return render(settings, measured, ledger);
}

function render(
  settings: RedisDeploymentSettings,
  measured: Figures[],
  [few, many]: [LedgerScaleFigures, LedgerScaleFigures],
): Section {
  const reference = (row: Figures) =>
    measured.find((other) => other.deployment === 'one Redis' && other.instances === row.instances);
  const shareOf = (row: Figures) =>
    row.purchasesPerCpuSecond / (reference(row)?.purchasesPerCpuSecond ?? Number.NaN);
  const rows = measured.map((row) => [
    `${row.deployment} ×${row.instances}`,
    `${fmt.int(row.run.purchases)} (${fmt.int(row.run.failures.length)})`,
    (row.run.purchases / row.run.seconds).toFixed(2),
    fmt.ms(row.cpuMsPerPurchase),
    fmt.int(row.purchasesPerCpuSecond),
    fmt.percent(shareOf(row)),
    fmt.ms(row.checkoutP99),
    fmt.ms(row.statusP99),
    fmt.ms(row.requestP99),
  ]);
  const clusters = measured.filter((row) => row.deployment === 'cluster');
  const ledgerRatio = many.hold.p50 / few.hold.p50;
  const { run } = settings;
  return {
    title: 'Redis deployments: one server, Sentinel, a cluster',
    command: 'npx -y pnpm@12.21.0 bench --only redis',
    lines: [
      'Three deployments of real redis-servers on this machine: one server; a primary with a replica, found ' +
        'through a Sentinel; a cluster of three primaries with a replica each. With each instance count in turn, ' +
        `${settings.instanceCounts.join(' then ')} BFF instances (child processes, one session secret) share each ` +
        'deployment, the funnel’s requests going round-robin over them. Each gets ' +
        `${settings.rounds} runs of ${run.travellers} travellers buying one after another for ${run.durationSeconds} s ` +
        `(at most ${fmt.int(run.maxPurchases)} purchases a run), alternating between the deployments, after one ` +
        `unmeasured warm-up run each (${settings.warmUp.travellers} travellers, ${settings.warmUp.durationSeconds} s). ` +
        'A purchase is the capacity funnel’s (start, catalog, session, quote, checkout `direct`, status polled once ' +
        'a second until ready, installation); the sandbox provisions in 1.5 s, so wall throughput is paced by the ' +
        'travellers and CPU per purchase is the figure: the user + system CPU of every instance of the deployment ' +
        'over its runs (background watches included). The Redis servers’ own CPU is not counted.',
      '',
      ...table(
        [
          'deployment × instances',
          'purchases (failed)',
          'purchases/s (wall)',
          'BFF CPU / purchase',
          'purchases per BFF CPU-second',
          'vs one Redis',
          'checkout p99',
          'status p99',
          'every request p99',
        ],
        rows,
      ),
      ...measured.flatMap((row) =>
        row.run.failures
          .slice(0, 2)
          .map((failure) => `- a failed purchase on ${row.deployment} ×${row.instances}: ${failure}`),
      ),
      ...(measured.some((row) => row.run.failures.length > 0) ? [''] : []),
      `**The funding ledger.** One account's ledger on one Redis, filled through the funding port the checkout ` +
        `service calls with firm holds (as \`direct\` checkouts make; the unpaid caps stop at 1,000) for at most ` +
        `${settings.ledger.fillSeconds} s, then ${settings.ledger.timed} more holds timed one by one, each given ` +
        'back before the next so the ledger keeps its size. In process, no HTTP: the ledger’s read, decision and ' +
        'compare-and-set, plus the account from its cache.',
      '',
      ...table(
        ['open holds asked', 'made', 'fill time', 'hold p50', 'hold p99', 'refused by the store'],
        [few, many].map((figures) => [
          fmt.int(figures.asked),
          fmt.int(figures.open),
          `${figures.fillSeconds.toFixed(1)} s`,
          fmt.ms(figures.hold.p50),
          fmt.ms(figures.hold.p99),
          fmt.int(figures.refused),
        ]),
      ),
    ],
    checks: [
      ...clusters.map((row) =>
        check(
          'redis.cluster.cpu-share',
          `purchases per BFF CPU-second, cluster vs one Redis, ${row.instances} instances`,
          shareOf(row),
          '>=',
          CLUSTER_SHARE_GOAL,
          fmt.percent,
        ),
      ),
      check(
        'redis.failures',
        'failed purchases on the Redis deployments',
        measured.reduce((sum, row) => sum + row.run.failures.length, 0),
        '<=',
        0,
        fmt.int,
      ),
      check(
        'redis.ledger.open-holds',
        `open holds the ledger reached (of ${fmt.int(many.asked)}) within ${settings.ledger.fillSeconds} s`,
        many.open,
        '>=',
        many.asked,
        fmt.int,
      ),
      check(
        'redis.ledger.flat',
        `funding hold p50 among ${fmt.int(many.open)} open holds vs among ${fmt.int(few.open)}`,
        ledgerRatio,
        '<=',
        LEDGER_FLAT_RATIO,
        (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '—'),
      ),
    ],
  };
}
