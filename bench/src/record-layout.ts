/**
 * @module
 * What the embedded store's record layout costs and saves, on the store alone: the store calls of one real
 * purchase (its writes and its reads of values: `recordPurchaseCalls` of the BFF's testing support, recorded
 * through the BFF and the sandbox) made again as `RECORD_LAYOUT_PURCHASES` purchases with fresh ids, four at a
 * time, every write synced as the store syncs it. `RECORD_LAYOUT_BASELINE` names the BFF's `src/index.ts` in a checkout of an earlier release
 * (`git archive <commit> packages/bff packages/shared | tar -x -C /tmp/before`, its `node_modules` linked to this
 * one's): its store is measured beside this build's as `before`, round by round alternating (this machine is
 * shared). Reports, medians of the rounds: CPU per purchase, bytes handed to `write` per purchase, and bytes on
 * disk per purchase (the store's `footprint()`: the database after a `TRUNCATE` checkpoint). Not a section of `pnpm bench`; run it alone, on
 * the production Node.js (node:sqlite) or this one (better-sqlite3):
 * `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/record-layout.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@esim-embed/bff';
import { makePurchase, recordPurchaseCalls } from '@esim-embed/bff/testing';

const PURCHASES = Number(process.env.RECORD_LAYOUT_PURCHASES ?? 1_000);
const ROUNDS = Number(process.env.RECORD_LAYOUT_ROUNDS ?? 3);
const AT_A_TIME = 4;
const BASELINE = process.env.RECORD_LAYOUT_BASELINE;
type OpenStore = typeof openSqliteStore;
const builds = new Map<string, OpenStore>([['this build', openSqliteStore]]);
if (BASELINE) {
  const baseline = (await import(BASELINE)) as { openSqliteStore: OpenStore };
  builds.set('before', baseline.openSqliteStore);
}

/** Bytes this process has handed to `write` calls so far (Linux). */
function bytesWritten(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? Number.NaN);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Figures {
  cpuMsPerPurchase: number;
  writtenPerPurchase: number;
  onDiskPerPurchase: number;
}

const calls = await recordPurchaseCalls();

async function measure(open: OpenStore): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-record-layout-'));
  const store = open({ dataDir, sweepIntervalMs: 3_600_000 });
  try {
    const cpuBefore = cpuMs();
    const writtenBefore = bytesWritten();
    for (let first = 0; first < PURCHASES; first += AT_A_TIME) {
      const count = Math.min(AT_A_TIME, PURCHASES - first);
      await Promise.all(Array.from({ length: count }, () => makePurchase(store, calls)));
    }
    // The files measured as they settle (a checkpoint; a store that compresses values once they stand does so
    // first), inside the time measured: that work is the purchases' too.
    const footprint = await store.footprint();
    const cpu = cpuMs() - cpuBefore;
    const written = bytesWritten() - writtenBefore;
    return {
      cpuMsPerPurchase: cpu / PURCHASES,
      writtenPerPurchase: written / PURCHASES,
      onDiskPerPurchase: (footprint.databaseBytes + footprint.walBytes) / PURCHASES,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = new Map<string, Figures[]>([...builds.keys()].map((name) => [name, []]));
// One unmeasured round first: the code warmed up.
await measure(openSqliteStore);
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const [name, open] of builds) results.get(name)?.push(await measure(open));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `node ${process.versions.node}, ${PURCHASES} purchases × ${ROUNDS} rounds per build (${calls.length} store ` +
    'calls a purchase), medians',
);
console.log('| build | CPU per purchase | bytes written per purchase | bytes on disk per purchase |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, figures] of results) {
  const of = (pick: (f: Figures) => number) => median(figures.map(pick));
  console.log(
    `| ${name} | ${of((f) => f.cpuMsPerPurchase).toFixed(2)} ms | ${(of((f) => f.writtenPerPurchase) / 1024).toFixed(0)} KB | ` +
      `${(of((f) => f.onDiskPerPurchase) / 1024).toFixed(2)} KB |`,
  );
}
