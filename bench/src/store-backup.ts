/**
 * @module
 * How to copy the embedded store while the BFF writes to it, measured. `VACUUM INTO` (what `server.mjs backup`
 * does: the BFF's `backupStore`) against SQLite's online backup API (better-sqlite3's `db.backup()`, node:sqlite's
 * `backup()`), all pages in one step and 100 pages a step (the engines' default). Each copy is taken by a process
 * of its own, as the backup command is, while another process — the BFF's store — makes synced inserts one after
 * another. Per method: how long the copy took, how often the backup API started over (another connection's write
 * restarts it), the copy's size, and the writer's insert latency while the copy ran, against before it. Runs on
 * this Node.js (better-sqlite3), then on the production line (node:sqlite), and writes
 * `bench/reports/store-backup.md`.
 *
 * Usage: `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/store-backup.ts`
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { backupStore, openSqliteStore } from '@esim-embed/bff';
import { percentile } from './load-spec';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
/** Checkouts in the store: some 50 MB of database. */
const CHECKOUTS = 30_000;
/** How long the writer writes before a copy begins, and after it ends. */
const MARGIN_MS = 1_500;
/** A copy still running after this long is stopped and reported as not finished. */
const GIVE_UP_MS = 30_000;
const CHECKOUT_RECORD = readFileSync(
  join(REPO, 'packages/bff/src/store/record-fixtures/checkout.direct-ready.json'),
  'utf8',
);

const METHODS = ['vacuum-into', 'backup-api-one-step', 'backup-api-100-pages'] as const;
type Method = (typeof METHODS)[number];
const METHOD_NAMES: Record<Method, string> = {
  'vacuum-into': '`VACUUM INTO` (`server.mjs backup`)',
  'backup-api-one-step': 'backup API, all pages in one step',
  'backup-api-100-pages': 'backup API, 100 pages a step',
};

/** What one copy process reports. */
interface CopyResult {
  ms: number;
  restarts: number;
  bytes: number;
}

/** One method's figures. */
interface Row {
  node: string;
  engine: string;
  method: Method;
  /** The database file's size when the copy began. */
  databaseBytes: number;
  copy?: CopyResult;
  /** The copy did not finish in {@link GIVE_UP_MS}. */
  gaveUp?: boolean;
  /** The writer's synced inserts, ms: p50, p99, max — before the copy and while it ran. */
  before: [number, number, number];
  during: [number, number, number];
}

/** The engine's raw database class, for its backup API (the store's adapter has none: it is not used). */
type RawDatabase = { backup(file: string, options: object): Promise<unknown>; close(): void };

/** Copy `database` into `target` with `method`, in this process. */
async function copyWith(method: Method, database: string, target: string): Promise<CopyResult> {
  const started = performance.now();
  if (method === 'vacuum-into') {
    const copy = await backupStore(join(database, '..'), target);
    return { ms: performance.now() - started, restarts: 0, bytes: copy.bytes };
  }
  const pages = method === 'backup-api-one-step' ? 2 ** 31 - 1 : 100;
  let remaining = Number.POSITIVE_INFINITY;
  let restarts = 0;
  const progress = (step: { remainingPages: number }) => {
    if (step.remainingPages > remaining) restarts += 1;
    remaining = step.remainingPages;
    return pages;
  };
  const sqlite = (process as unknown as { getBuiltinModule(id: string): unknown }).getBuiltinModule?.(
    'node:sqlite',
  ) as
    | {
        DatabaseSync: new (path: string, options: object) => RawDatabase;
        backup(db: RawDatabase, file: string, options: object): Promise<unknown>;
      }
    | undefined;
  if (sqlite !== undefined) {
    const db = new sqlite.DatabaseSync(database, { readOnly: true });
    await sqlite.backup(db, target, { rate: pages, progress });
    db.close();
  } else {
    const BetterSqlite3 = createRequire(join(REPO, 'packages/bff/package.json'))('better-sqlite3') as new (
      path: string,
      options: object,
    ) => RawDatabase;
    const db = new BetterSqlite3(database, { readonly: true, fileMustExist: true });
    await db.backup(target, { progress });
    db.close();
  }
  return { ms: performance.now() - started, restarts, bytes: statSync(target).size };
}

/** Synced inserts one after another until standard input closes; prints `[startedAt, ms]` per insert. */
async function writeUntilTold(dataDir: string): Promise<void> {
  const store = openSqliteStore({ dataDir, sweepIntervalMs: 3_600_000 });
  let open = true;
  process.stdin.on('end', () => {
    open = false;
  });
  process.stdin.resume();
  const samples: [number, number][] = [];
  process.stderr.write('ready\n');
  // A checkout written, then the one before it deleted: the store's size stays put, so the copies compare.
  for (let index = 0; open; index += 1) {
    const started = Date.now();
    const clock = performance.now();
    await store.insert(`checkout:written-${index}`, CHECKOUT_RECORD, 3_600_000);
    samples.push([started, performance.now() - clock]);
    if (index > 0) await store.compareAndDelete(`checkout:written-${index - 1}`, 1);
  }
  await store.close();
  process.stdout.write(JSON.stringify(samples));
}

/** Start `node --import tsx` on this file in `role`. */
function child(node: string, role: string, args: string[]) {
  return spawn(node, ['--import', 'tsx', SELF, role, ...args], {
    cwd: join(REPO, 'bench'),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

const figures = (samples: number[]): [number, number, number] => {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return [round(percentile(sorted, 50)), round(percentile(sorted, 99)), round(sorted.at(-1) ?? 0)];
};

/** One method: a writer, a copy by another process meanwhile, the writer's latency around it. */
async function measureMethod(node: string, dataDir: string, method: Method): Promise<Row> {
  const writer = child(node, 'writer', [dataDir]);
  let written = '';
  writer.stdout.on('data', (chunk) => {
    written += chunk;
  });
  await new Promise<void>((ready) =>
    writer.stderr.on('data', (chunk) => String(chunk).includes('ready') && ready()),
  );
  await new Promise((resolve) => setTimeout(resolve, MARGIN_MS));
  const target = join(dataDir, '..', `copy-${method}.sqlite`);
  rmSync(target, { force: true });
  const databaseBytes = statSync(join(dataDir, 'esim-bff.sqlite')).size;
  const copyStarted = Date.now();
  const copier = child(node, 'copy', [method, join(dataDir, 'esim-bff.sqlite'), target]);
  let reported = '';
  copier.stdout.on('data', (chunk) => {
    reported += chunk;
  });
  const giveUp = setTimeout(() => copier.kill('SIGKILL'), GIVE_UP_MS);
  const code = await new Promise<number | null>((done) => copier.once('exit', done));
  clearTimeout(giveUp);
  const copyEnded = Date.now();
  await new Promise((resolve) => setTimeout(resolve, MARGIN_MS));
  writer.stdin.end();
  await new Promise((done) => writer.once('exit', done));
  rmSync(target, { force: true });
  const samples = JSON.parse(written) as [number, number][];
  const during = samples.filter(([at]) => at >= copyStarted && at <= copyEnded).map(([, ms]) => ms);
  const before = samples.filter(([at]) => at < copyStarted).map(([, ms]) => ms);
  const engine = execFileSync(node, ['-p', "typeof process.getBuiltinModule?.('node:sqlite')"], {
    encoding: 'utf8',
  }).includes('object')
    ? 'node:sqlite'
    : 'better-sqlite3';
  return {
    node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
    engine,
    method,
    databaseBytes,
    ...(code === 0 ? { copy: JSON.parse(reported) as CopyResult } : { gaveUp: true }),
    before: figures(before),
    during: figures(during),
  };
}

/** A store of {@link CHECKOUTS} checkouts, written through the store (synced at the end). */
async function storeOfCheckouts(node: string): Promise<string> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'esim-store-backup-bench-')), 'data');
  execFileSync(node, ['--import', 'tsx', SELF, 'fill', dataDir], {
    cwd: join(REPO, 'bench'),
    stdio: 'inherit',
  });
  return dataDir;
}

async function fill(dataDir: string): Promise<void> {
  const store = openSqliteStore({ dataDir });
  const insert = store.database.prepare(
    'INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, 1, ?)',
  );
  store.database.transaction(() => {
    for (let index = 0; index < CHECKOUTS; index += 1) {
      insert.run(`checkout:bench-${index}`, CHECKOUT_RECORD, Date.now() + 3_600_000);
    }
  });
  await store.close();
}

async function measureOn(node: string): Promise<Row[]> {
  const dataDir = await storeOfCheckouts(node);
  try {
    const rows: Row[] = [];
    for (const method of METHODS) rows.push(await measureMethod(node, dataDir, method));
    return rows;
  } finally {
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  }
}

function markdown(rows: Row[]): string {
  const triple = (value: [number, number, number]) => value.join(' / ');
  return [
    '| Node.js | engine | method | copy | restarts | database file → copy | writer ms before: p50 / p99 / max | writer ms during |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => {
      const copy =
        row.copy === undefined
          ? [`not finished in ${GIVE_UP_MS / 1000} s`, '—', '—']
          : [
              `${(row.copy.ms / 1000).toFixed(2)} s`,
              String(row.copy.restarts),
              `${(row.databaseBytes / 1_000_000).toFixed(1)} → ${(row.copy.bytes / 1_000_000).toFixed(1)} MB`,
            ];
      return `| ${row.node} | ${row.engine} | ${METHOD_NAMES[row.method]} | ${copy.join(' | ')} | ${triple(row.before)} | ${triple(row.during)} |`;
    }),
  ].join('\n');
}

const [role, ...args] = process.argv.slice(2);
if (role === 'writer') await writeUntilTold(args[0] as string);
else if (role === 'fill') await fill(args[0] as string);
else if (role === 'copy') {
  const [method, database, target] = args as [Method, string, string];
  process.stdout.write(JSON.stringify(await copyWith(method, database, target)));
} else {
  const load = loadavg()[0]?.toFixed(1);
  const productionNode = execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const rows = [...(await measureOn(process.execPath)), ...(await measureOn(productionNode))];
  const report = `# Copying the embedded store while it is written (${new Date().toISOString().slice(0, 10)})

\`npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/store-backup.ts\` — a store of ${CHECKOUTS} checkouts
(${CHECKOUT_RECORD.length}-byte records), copied by a process of its own while another process (the store, as the BFF
holds it) makes synced inserts one after another; on a machine shared with other work (load average ${load} at the
start: expect noise in the tails). "Restarts": how often the backup API began again because the other process wrote.

${markdown(rows)}
`;
  writeFileSync(join(REPO, 'bench/reports/store-backup.md'), report);
  console.log(report);
}
