/**
 * @module
 * What a page of the partner lists costs with a million checkouts: one widget's checkout index in the embedded
 * store (SQLite) filled with 1,000,000 entries, then the median time of a page of 26 (a page of 25 and the one
 * that says whether another follows) at the top, after a cursor in the middle and near the end, and of a scan of
 * the whole index for reference — what a list without the index would at least cost. Not a section of
 * `pnpm bench`; run it alone:
 * `npx -y pnpm@12.21.0 --filter @esim-embed/bench exec tsx src/partner-list-cost.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@esim-embed/bff';

const ENTRIES = Number(process.env.LIST_COST_ENTRIES ?? 1_000_000);
const RUNS = 200;
const NAME = 'checkouts:bench-widget';
const START = Date.parse('2026-01-01T00:00:00Z');

const dataDir = mkdtempSync(join(tmpdir(), 'esim-list-cost-'));
const store = openSqliteStore({ dataDir });
try {
  // Filled in bulk beside the store's API (one transaction): the setup, not what is measured.
  const insert = store.database.prepare(
    'INSERT INTO index_entries (name, member, score, expires_at) VALUES (?, ?, ?, ?)',
  );
  const filling = performance.now();
  store.database.transaction(() => {
    for (let at = 0; at < ENTRIES; at += 1) {
      // A sale every 2.6 s over a month, ids in no order (as checkout ids are random).
      insert.run(
        NAME,
        `chk_${((at * 2_654_435_761) % 4_294_967_296).toString(36)}_${at}`,
        START + at * 2_600,
        9e15,
      );
    }
  });
  console.log(`filled ${ENTRIES} entries in ${Math.round(performance.now() - filling)} ms`);

  const index = store.sortedIndex(NAME);
  const all = { fromScore: Number.NEGATIVE_INFINITY, toScore: Number.POSITIVE_INFINITY, limit: 26 };
  const median = async (work: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      await work();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
  };
  const at = (position: number) => ({ member: 'chk_~', score: START + position * 2_600 });
  const rows: [string, number][] = [
    ['first page', await median(() => index.range({ ...all, after: null }))],
    [
      'page after a cursor in the middle',
      await median(() => index.range({ ...all, after: at(ENTRIES / 2) })),
    ],
    ['page near the end', await median(() => index.range({ ...all, after: at(30) }))],
    [
      'page of a created-at window (one day)',
      await median(() =>
        index.range({
          ...all,
          fromScore: START + 86_400_000 * 10,
          toScore: START + 86_400_000 * 11,
          after: null,
        }),
      ),
    ],
  ];
  const count = store.database.prepare(
    'SELECT count(*) AS n FROM index_entries WHERE name = ? AND expires_at > ?',
  );
  const scans: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    count.get(NAME, Date.now());
    scans.push(performance.now() - started);
  }
  rows.push(['reference: a scan of the whole index (count)', scans.sort((a, b) => a - b)[2] ?? Number.NaN]);
  console.log(`\n| read (${ENTRIES.toLocaleString('en')} entries, SQLite ${store.engine}) | median ms |`);
  console.log('| --- | ---: |');
  for (const [what, ms] of rows) console.log(`| ${what} | ${ms.toFixed(3)} |`);
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
