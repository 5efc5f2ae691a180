/**
 * @module
 * The embedded store's engine, measured on this machine's disk: `node:sqlite` (built into Node.js ≥ 22.13, the
 * production line 24) against `better-sqlite3` (the package, on Node.js 20) and the memory store, through the
 * store's own API — synced commits one after another, a checkout's write and reads (insert, read,
 * compare-and-set, read of a 2 KB record), and a work-queue claim with 100,000 items waiting. Runs on this
 * Node.js, then again on the production line (`scripts/production-node.mjs`), and writes one table to
 * `bench/reports/store-engines.md`.
 *
 * Usage: `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/store-engines.ts`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createMemoryStore, openSqliteStore, type Store, type WorkQueue } from '@esim-embed/bff';
import { percentile } from './load-spec';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const COMMITS = 2_000;
const CHECKOUT_CYCLES = 1_000;
const BACKLOG = 100_000;
const CLAIMS = 200;
const CHECKOUT_RECORD = readFileSync(
  join(REPO, 'packages/bff/src/store/record-fixtures/checkout.direct-ready.json'),
  'utf8',
);

/** One engine's figures on one Node.js. */
interface Row {
  node: string;
  store: string;
  /** Microseconds per synced insert: p50, p99. */
  commit?: [number, number];
  commitsPerSecond?: number;
  /** Microseconds per insert + get + compare-and-set + get of a checkout: p50, p99. */
  checkout?: [number, number];
  /** Microseconds per claim of 10 with the backlog waiting: p50, p99. */
  claim?: [number, number];
  /** Microseconds per removal of one claimed item: p50, p99. */
  remove?: [number, number];
  /** Why the engine could not be measured here. */
  unavailable?: string;
}

const micros = (samples: number[]): [number, number] => {
  const sorted = [...samples].sort((a, b) => a - b);
  return [Math.round(percentile(sorted, 50) * 1000), Math.round(percentile(sorted, 99) * 1000)];
};

async function timed(times: number, step: (index: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const started = performance.now();
    await step(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function measure(store: Store & { queue?: (name: string) => WorkQueue }, name: string): Promise<Row> {
  const row: Row = { node: process.version, store: name };
  const commitsStarted = performance.now();
  const commits = await timed(COMMITS, (index) => store.insert(`commit:${index}`, 'x', 60_000));
  row.commitsPerSecond = Math.round(COMMITS / ((performance.now() - commitsStarted) / 1000));
  row.commit = micros(commits);
  row.checkout = micros(
    await timed(CHECKOUT_CYCLES, async (index) => {
      const key = `checkout:${index}`;
      await store.insert(key, CHECKOUT_RECORD, 3_600_000);
      const read = await store.get(key);
      await store.compareAndSet(key, read?.version ?? 1, CHECKOUT_RECORD, 3_600_000);
      await store.get(key);
    }),
  );
  if (store.queue !== undefined && 'database' in store) {
    const db = (store as ReturnType<typeof openSqliteStore>).database;
    // The backlog is loaded in one transaction (as traffic would over time), then claimed through the API.
    db.transaction(() => {
      const insert = db.prepare(
        'INSERT INTO queue_items (queue, id, partition, due_at, added_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (let index = 0; index < BACKLOG; index += 1) {
        insert.run('bench', `dead-${index}`, `partner-${index % 20}`, index, index);
      }
      const partition = db.prepare(
        `INSERT INTO queue_partitions (queue, partition, earliest_due_at, item_count, paused_until, claimable_at)
         VALUES ('bench', ?, ?, ?, 0, ?)`,
      );
      for (let index = 0; index < 20; index += 1)
        partition.run(`partner-${index}`, index, BACKLOG / 20, index);
    });
    const queue = store.queue('bench');
    const claimed: string[] = [];
    row.claim = micros(
      await timed(CLAIMS, async () => {
        const items = await queue.claim(Date.now(), { limit: 10, perPartition: 2, leaseMs: 60_000 });
        claimed.push(...items.map((item) => item.id));
      }),
    );
    row.remove = micros(await timed(claimed.length, (index) => queue.remove(claimed[index] as string)));
  }
  return row;
}

/** Every engine this Node.js can run. */
async function measureHere(): Promise<Row[]> {
  const rows: Row[] = [];
  const memory = createMemoryStore();
  rows.push(await measure(memory, 'memory'));
  await memory.close();
  for (const engine of ['node:sqlite', 'better-sqlite3'] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'esim-store-bench-'));
    try {
      const store = openSqliteStore({ dataDir, engine });
      try {
        rows.push(await measure(store, `embedded, ${engine}`));
      } finally {
        await store.close();
      }
    } catch (error) {
      const cause = String((error as Error).cause ?? '');
      const reason = /NODE_MODULE_VERSION/.test(cause)
        ? 'its native build is for another Node.js line'
        : cause === ''
          ? 'not built into this Node.js'
          : cause.split('\n')[0]?.slice(0, 90);
      rows.push({ node: process.version, store: `embedded, ${engine}`, unavailable: reason });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

function markdown(rows: Row[]): string {
  const pair = (value?: [number, number]) => (value === undefined ? '—' : `${value[0]} / ${value[1]}`);
  const lines = [
    '| Node.js | store | synced insert µs p50 / p99 | inserts/s | checkout write + reads µs p50 / p99 | claim 10 of 100,000 µs p50 / p99 | remove one µs p50 / p99 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) =>
      row.unavailable === undefined
        ? `| ${row.node} | ${row.store} | ${pair(row.commit)} | ${row.commitsPerSecond} | ${pair(row.checkout)} | ${pair(row.claim)} | ${pair(row.remove)} |`
        : `| ${row.node} | ${row.store} | not available: ${row.unavailable} | | | | |`,
    ),
  ];
  return lines.join('\n');
}

if (process.env.STORE_BENCH_CHILD === '1') {
  process.stdout.write(JSON.stringify(await measureHere()));
} else {
  const load = loadavg()[0]?.toFixed(1);
  const rows = await measureHere();
  const productionNode = execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const child = execFileSync(productionNode, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: join(REPO, 'bench'),
    encoding: 'utf8',
    env: { ...process.env, STORE_BENCH_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  rows.push(...(JSON.parse(child) as Row[]));
  const report = `# The embedded store's engine (${new Date().toISOString().slice(0, 10)})

\`npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/store-engines.ts\` — through the store's API, on
this machine's disk (WAL, \`synchronous=FULL\`: every write is one synced commit), on a machine shared with
other work (load average ${load} at the start: expect noise in the tails). ${COMMITS} inserts, ${CHECKOUT_CYCLES} checkout cycles (insert, read,
compare-and-set, read) of a ${CHECKOUT_RECORD.length}-byte record, ${CLAIMS} claims of 10 with ${BACKLOG} items
waiting in 20 partitions, then each claimed item removed.

${markdown(rows)}
`;
  writeFileSync(join(REPO, 'bench/reports/store-engines.md'), report);
  console.log(report);
}
