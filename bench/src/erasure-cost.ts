/**
 * @module
 * What erasing deleted content costs the embedded store, `PRAGMA secure_delete` OFF, FAST (the store's) and ON,
 * each on a store with incremental auto-vacuum: a purchase's writes (a quote, a checkout rewritten five times as it
 * grows from 1.6 to 4 KB, an idempotent answer, a lease taken and let go, the counters) made by four travellers at
 * a time, every write synced as the store syncs it; then every row expired and the sweep run (its deletes, the
 * incremental vacuum and the WAL's `TRUNCATE` checkpoint). Reports the CPU and the bytes written per purchase, and
 * the sweep's time and the file's size before and after it. The settings alternate round by round (this machine is
 * shared). `ERASURE_COST_BASELINE` names the BFF's `src/index.ts` in a checkout of a release before these
 * settings (`git archive <commit> packages/bff packages/shared | tar -x -C /tmp/before`, its `node_modules` linked
 * to this one's): its store's writes are measured beside them as `before` (it has no sweep to call). Not a section
 * of `pnpm bench`; run it alone, on the production Node.js (node:sqlite) or this one (better-sqlite3):
 * `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/erasure-cost.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@esim-embed/bff';

const PURCHASES = Number(process.env.ERASURE_COST_PURCHASES ?? 400);
const ROUNDS = Number(process.env.ERASURE_COST_ROUNDS ?? 3);
const AT_A_TIME = 4;
const BASELINE = process.env.ERASURE_COST_BASELINE;
const MODES = [...(BASELINE ? (['before'] as const) : []), 'OFF', 'FAST', 'ON'] as const;
type Mode = (typeof MODES)[number];
type OpenStore = typeof openSqliteStore;
const openBaseline: OpenStore | null = BASELINE
  ? ((await import(BASELINE)) as { openSqliteStore: OpenStore }).openSqliteStore
  : null;

/** Bytes this process has handed to `write` calls so far (Linux). */
function bytesWritten(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? Number.NaN);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** A JSON value of about `bytes` bytes holding a traveller's address. */
const record = (id: string, bytes: number) =>
  JSON.stringify({ id, email: `traveller.${id}@example.org`, plan: 'p'.repeat(Math.max(0, bytes - 80)) });

interface Figures {
  cpuMsPerPurchase: number;
  bytesPerPurchase: number;
  /** Null for the baseline, which has no sweep to call. */
  sweepMs: number | null;
  fileBefore: number;
  fileAfter: number;
}

async function measure(mode: Mode): Promise<Figures> {
  let time = 1_800_000_000_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-erasure-cost-'));
  const open = mode === 'before' ? (openBaseline as OpenStore) : openSqliteStore;
  const store = open({ dataDir, now: () => time, sweepIntervalMs: 3_600_000 });
  try {
    if (mode !== 'before') store.database.exec(`PRAGMA secure_delete = ${mode}`);
    const purchase = async (index: number) => {
      const id = `p${index}`;
      await store.insert(`quote:${id}`, record(id, 1_200), 60_000);
      await store.insert(`checkout:${id}`, record(id, 1_600), 60_000);
      for (let version = 1; version <= 5; version += 1) {
        await store.compareAndSet(`checkout:${id}`, version, record(id, 1_600 + version * 480), 60_000);
      }
      await store.insert(`idempotency:${id}`, record(id, 2_000), 60_000);
      await store.insert(`lease:${id}`, 'held', 60_000);
      await store.compareAndDelete(`lease:${id}`, 1);
      for (let count = 0; count < 5; count += 1) await store.increment(`counter:${index % 50}`, 1, 60_000);
    };
    const cpuBefore = cpuMs();
    const writtenBefore = bytesWritten();
    for (let first = 0; first < PURCHASES; first += AT_A_TIME) {
      await Promise.all(
        Array.from({ length: Math.min(AT_A_TIME, PURCHASES - first) }, (_, at) => purchase(first + at)),
      );
    }
    const cpu = cpuMs() - cpuBefore;
    const written = bytesWritten() - writtenBefore;
    store.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const file = join(dataDir, 'esim-bff.sqlite');
    const fileBefore = statSync(file).size;
    time += 120_000;
    const sweepStarted = performance.now();
    if (mode !== 'before') await store.sweep();
    const sweepMs = mode === 'before' ? null : performance.now() - sweepStarted;
    return {
      cpuMsPerPurchase: cpu / PURCHASES,
      bytesPerPurchase: written / PURCHASES,
      sweepMs,
      fileBefore,
      fileAfter: statSync(file).size,
    };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = new Map<Mode, Figures[]>(MODES.map((mode) => [mode, []]));
// One unmeasured round first: the code warmed up.
await measure('FAST');
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const mode of MODES) results.get(mode)?.push(await measure(mode));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `node ${process.versions.node}, ${PURCHASES} purchases × ${ROUNDS} rounds per setting, medians; ` +
    'every setting but `before` with incremental auto-vacuum',
);
console.log(
  '| secure_delete | CPU per purchase | bytes written per purchase | sweep | file before → after sweep |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [mode, figures] of results) {
  const of = (pick: (f: Figures) => number) => median(figures.map(pick));
  const sweep = mode === 'before' ? '—' : `${Math.round(of((f) => f.sweepMs ?? 0))} ms`;
  console.log(
    `| ${mode} | ${of((f) => f.cpuMsPerPurchase).toFixed(2)} ms | ${Math.round(of((f) => f.bytesPerPurchase) / 1024)} KB | ` +
      `${sweep} | ${(of((f) => f.fileBefore) / 1e6).toFixed(1)} → ${(of((f) => f.fileAfter) / 1e6).toFixed(2)} MB |`,
  );
}
