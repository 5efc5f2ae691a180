/**
 * @module
 * The purchase funnel on the embedded store against the memory store: the same whole purchases the capacity
 * funnel makes (`funnel.ts`, `driveFunnel`), through ONE BFF instance on the embedded store (the server entry's
 * default: a data folder of its own, every answered write synced to disk) and ONE on the memory store (nothing
 * durable: the reference), from the same sandbox, with the same load. The runs alternate between the two
 * instances (memory, embedded, memory, embedded, …) so that a neighbour's burst on this shared machine falls on
 * both. Reported per store: purchases per second (wall), BFF CPU per purchase and purchases per BFF CPU-second,
 * p50 / p99 of every step; the embedded store's figures as a share of the memory store's (goal ≥ 80 %). Then the
 * embedded store's bytes on disk per purchase, once its instance has made `diskPurchases` (the warm-up's and the
 * runs', then unmeasured ones up to that count): its database file after a checkpoint plus its WAL, divided by
 * the purchases, and each table's share as SQLite's `dbstat` counts it.
 * Bounded in travellers, purchases and time; loopback only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreFootprint } from '@esim-embed/bff';
import { BENCH_ENV } from './bench-config';
import { type BenchChild, startChild } from './child-process';
import {
  driveFunnel,
  emptyFunnelRun,
  type FunnelRun,
  type FunnelSettings,
  funnelConfig,
  startFunnelSandbox,
  stepLatencies,
} from './funnel';
import { check, fmt, type Section, table } from './report';
import type { BffChildOptions, BffInfo } from './servers/bff-server';

/** The store funnel's bounds. */
export interface StoreFunnelSettings {
  /** One measured run against one instance; `durationSeconds` and `maxPurchases` bound each run. */
  run: FunnelSettings;
  /** Measured runs per store, alternating between the stores. */
  rounds: number;
  /** An unmeasured run against each instance first (its code warmed up, its catalog read once). */
  warmUp: FunnelSettings;
  /** The embedded store's size on disk is measured once its instance has made this many purchases. */
  diskPurchases: number;
}

type StoreKind = 'memory' | 'embedded';
/** `BENCH_PROFILE_DIR=/tmp/prof` writes a CPU profile of each instance over its measured runs there. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const STORES: readonly StoreKind[] = ['memory', 'embedded'];

/** What one store reached. */
interface StoreFigures {
  store: StoreKind;
  run: FunnelRun;
  purchasesPerSecond: number;
  cpuMsPerPurchase: number;
  purchasesPerCpuSecond: number;
}

function figures(store: StoreKind, run: FunnelRun): StoreFigures {
  return {
    store,
    run,
    purchasesPerSecond: run.purchases / run.seconds,
    cpuMsPerPurchase: (run.cpuSeconds * 1000) / run.purchases,
    purchasesPerCpuSecond: run.purchases / run.cpuSeconds,
  };
}

/** The embedded store's size on disk after the purchases its instance made. */
interface DiskFigures {
  purchases: number;
  /** Purchases that failed among the unmeasured ones made up to the count. */
  fillFailures: string[];
  footprint: StoreFootprint;
  bytesPerPurchase: number;
}

/** The budget of bytes on disk per purchase on the embedded store (issue 36). */
const BYTES_PER_PURCHASE_BUDGET = 8 * 1024;

/** The store funnel section of `pnpm bench` (`--only store-funnel`). */
export async function storeFunnelSection(settings: StoreFunnelSettings): Promise<Section> {
  const sandbox = await startFunnelSandbox();
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-bench-store-funnel-'));
  const common = {
    config: funnelConfig(sandbox.info.url),
    env: BENCH_ENV,
    sessionSecret: randomBytes(32).toString('base64url'),
    logLevel: 'warn',
  } satisfies Partial<BffChildOptions>;
  const instances = new Map<StoreKind, BenchChild<BffInfo>>();
  try {
    instances.set(
      'memory',
      await startChild<BffInfo>(
        'servers/bff-server.ts',
        { ...common, memoryStore: true },
        { stdout: 'ignore' },
      ),
    );
    instances.set(
      'embedded',
      await startChild<BffInfo>('servers/bff-server.ts', { ...common, dataDir }, { stdout: 'ignore' }),
    );
    const instance = (store: StoreKind) => [instances.get(store) as BenchChild<BffInfo>];
    const warmUps = new Map<StoreKind, FunnelRun>();
    for (const store of STORES) warmUps.set(store, await driveFunnel(instance(store), settings.warmUp));
    const runs = new Map(STORES.map((store) => [store, emptyFunnelRun()]));
    if (PROFILE_DIR) await Promise.all([...instances.values()].map((child) => child.ask('profileStart')));
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const store of STORES) {
        console.log(`[bench] store funnel: round ${round} of ${settings.rounds} on the ${store} store`);
        await driveFunnel(instance(store), settings.run, runs.get(store));
      }
    }
    if (PROFILE_DIR) {
      for (const store of STORES) {
        await instances
          .get(store)
          ?.ask('profileStop', { file: `${PROFILE_DIR}/store-funnel-${store}.cpuprofile` });
      }
    }
    const [memory, embedded] = STORES.map((store) => figures(store, runs.get(store) as FunnelRun)) as [
      StoreFigures,
      StoreFigures,
    ];
    // Unmeasured purchases on the embedded store up to `diskPurchases`, so its size is that of as many purchases.
    const made = embedded.run.purchases + (warmUps.get('embedded')?.purchases ?? 0);
    const fill =
      made < settings.diskPurchases
        ? await driveFunnel(instance('embedded'), {
            ...settings.run,
            durationSeconds: settings.run.durationSeconds * 10,
            maxPurchases: settings.diskPurchases - made,
          })
        : emptyFunnelRun();
    const purchases = made + fill.purchases;
    const footprint = await instances.get('embedded')?.ask<StoreFootprint | null>('storeFootprint');
    const disk =
      footprint == null
        ? null
        : {
            purchases,
            fillFailures: fill.failures,
            footprint,
            bytesPerPurchase: (footprint.databaseBytes + footprint.walBytes) / purchases,
          };
    return render(settings, memory, embedded, disk);
  } finally {
    await Promise.all([...instances.values()].map((child) => child.stop()));
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The lines on the embedded store's bytes on disk. */
function diskLines(disk: DiskFigures | null): string[] {
  if (disk === null)
    return ['The embedded store did not measure its size on disk (a BFF build before it could).', ''];
  const { footprint, purchases, fillFailures } = disk;
  const perPurchase = (bytes: number) => fmt.kb(bytes / purchases);
  return [
    `**Bytes on disk per purchase.** After the ${fmt.int(purchases)} purchases its instance made (the warm-up's, ` +
      'the runs’ and unmeasured ones up to that count' +
      `${fillFailures.length > 0 ? `; ${fillFailures.length} of those failed: ${fillFailures[0]}` : ''}), ` +
      'the embedded store’s database file after a `TRUNCATE` checkpoint, plus its WAL, divided by ' +
      `the purchases; ${fmt.int(footprint.pageSize)}-byte pages. Per table and index, as SQLite's \`dbstat\` ` +
      'counts it: the bytes of its pages, the record bytes they hold, the bytes left unused on them, and its ' +
      'overflow pages (records too large for their b-tree page).',
    '',
    ...table(
      ['what', 'bytes', 'per purchase'],
      [
        ['database file', fmt.int(footprint.databaseBytes), perPurchase(footprint.databaseBytes)],
        ['WAL', fmt.int(footprint.walBytes), perPurchase(footprint.walBytes)],
        ['free pages (inside the file)', fmt.int(footprint.freeBytes), perPurchase(footprint.freeBytes)],
        ['**bytes on disk per purchase**', '', `**${fmt.kb(disk.bytesPerPurchase)}**`],
      ],
    ),
    ...(footprint.tables === null
      ? ['This SQLite build has no `dbstat`: no figures per table.', '']
      : table(
          ['table or index', 'per purchase', 'record bytes', 'unused', 'overflow pages'],
          footprint.tables.map((row) => [
            `\`${row.name}\``,
            perPurchase(row.bytes),
            perPurchase(row.payloadBytes),
            row.bytes === 0 ? '—' : fmt.percent(row.unusedBytes / row.bytes),
            fmt.int(row.overflowPages),
          ]),
        )),
  ];
}

function render(
  settings: StoreFunnelSettings,
  memory: StoreFigures,
  embedded: StoreFigures,
  disk: DiskFigures | null,
): Section {
  const wallShare = embedded.purchasesPerSecond / memory.purchasesPerSecond;
  const cpuShare = embedded.purchasesPerCpuSecond / memory.purchasesPerCpuSecond;
  const both = [memory, embedded];
  const latencies = both.map((store) => stepLatencies(store.run));
  const stepRows = (latencies[0] ?? []).map((row, index) => [
    row.step,
    ...latencies.flatMap((rows) => {
      const step = rows[index] as (typeof rows)[number];
      return [fmt.int(step.requests), fmt.ms(step.p50), fmt.ms(step.p99)];
    }),
  ]);
  const { run } = settings;
  return {
    title: 'The purchase funnel on the embedded store against the memory store',
    command: 'npx -y pnpm@12.21.0 bench --only store-funnel',
    lines: [
      `One BFF instance on the embedded store (a fresh data folder, as \`ESIM_BFF_DATA_DIR\` names it) and one on ` +
        `the memory store, the same config, the same sandbox (an order provisioned in 1.5 s). Each store gets ` +
        `${settings.rounds} runs of ${run.travellers} travellers buying one after another for ${run.durationSeconds} s ` +
        `(at most ${fmt.int(run.maxPurchases)} purchases a run), the runs alternating between the stores, after ` +
        `one unmeasured warm-up run each (${settings.warmUp.travellers} travellers, ${settings.warmUp.durationSeconds} s). ` +
        'A purchase is the capacity funnel’s: start, public catalog, session at the quote, checkout (`direct`), ' +
        'status polled once a second until ready, installation. At this load a purchase waits mostly on the ' +
        'upstream’s provisioning and the widget’s polling, so purchases per second (wall) are paced by the ' +
        'travellers; purchases per BFF CPU-second are what one core would carry, and the goal is held on both.',
      '',
      ...table(
        ['figure', 'memory ×1', 'embedded ×1', 'embedded / memory'],
        [
          [
            'purchases completed (failed)',
            ...both.map((store) => `${fmt.int(store.run.purchases)} (${fmt.int(store.run.failures.length)})`),
            '',
          ],
          [
            'purchases per second (wall)',
            ...both.map((store) => store.purchasesPerSecond.toFixed(2)),
            fmt.percent(wallShare),
          ],
          [
            'BFF CPU per purchase',
            ...both.map((store) => fmt.ms(store.cpuMsPerPurchase)),
            `${(embedded.cpuMsPerPurchase / memory.cpuMsPerPurchase).toFixed(2)}×`,
          ],
          [
            'purchases per BFF CPU-second (one core)',
            ...both.map((store) => fmt.int(store.purchasesPerCpuSecond)),
            fmt.percent(cpuShare),
          ],
        ],
      ),
      ...table(['step', 'memory: requests', 'p50', 'p99', 'embedded: requests', 'p50', 'p99'], stepRows),
      ...both.flatMap((store) =>
        store.run.failures
          .slice(0, 2)
          .map((failure) => `- a failed purchase on the ${store.store} store: ${failure}`),
      ),
      ...(memory.run.failures.length + embedded.run.failures.length > 0 ? [''] : []),
      ...diskLines(disk),
    ],
    checks: [
      check(
        'store-funnel.wall',
        'purchases per second, embedded store vs memory store',
        wallShare,
        '>=',
        0.8,
        fmt.percent,
      ),
      check(
        'store-funnel.cpu',
        'purchases per BFF CPU-second, embedded store vs memory store',
        cpuShare,
        '>=',
        0.8,
        fmt.percent,
      ),
      check(
        'store-funnel.failures',
        'failed purchases in the store funnel',
        memory.run.failures.length + embedded.run.failures.length + (disk?.fillFailures.length ?? 0),
        '<=',
        0,
        fmt.int,
      ),
      check(
        'store-funnel.bytes-per-purchase',
        'bytes on disk per purchase, embedded store',
        disk?.bytesPerPurchase ?? Number.NaN,
        '<=',
        BYTES_PER_PURCHASE_BUDGET,
        fmt.kb,
      ),
    ],
  };
}
