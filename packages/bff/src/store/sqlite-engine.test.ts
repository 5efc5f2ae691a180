/**
 * The two engines under the embedded store read each other's files: a data directory written here (this
 * Node.js's engine) is read and written on the production Node.js line (24, `node:sqlite`), then read here again —
 * so a BFF moved from Node.js 20 with better-sqlite3 to Node.js 24 keeps its state. `node:sqlite` leaves the files
 * as better-sqlite3 does once rows are gone (`sqlite-store.test.ts` runs the same scenario here): no byte of them,
 * a file that shrinks, modes `0600`. And the engine's choice: the built-in one where this Node.js has it, else the
 * package.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DiskAfterErasure } from '../../testing/erased-from-disk';
import { sqliteEngineName } from './sqlite-engine';
import { openSqliteStore } from './sqlite-store';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STORE_MODULE = fileURLToPath(new URL('./sqlite-store.ts', import.meta.url));
const ERASURE_MODULE = fileURLToPath(new URL('../../testing/erased-from-disk.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'esim-sqlite-engines-'));
const QUOTE = readFileSync(new URL('./record-fixtures/quote.issue.json', import.meta.url), 'utf8');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Run `body` (an ES module's text, with `openSqliteStore` and `dataDir` in scope) on the production Node.js. */
function onProductionNode(body: string): unknown {
  const node = execFileSync(process.execPath, [join(REPO, 'scripts/production-node.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const script = `const { openSqliteStore } = await import(${JSON.stringify(STORE_MODULE)});
const dataDir = process.argv[1];
${body}`;
  const output = execFileSync(node, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], {
    // tsx is this package's: resolved from here.
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

describe('the embedded store’s engines', () => {
  it('uses node:sqlite where this Node.js has it, else better-sqlite3', () => {
    const major = Number(process.versions.node.split('.')[0]);
    // 22 and 23 have node:sqlite from a minor release on (22.13): either answer is right there.
    if (major >= 24) expect(sqliteEngineName()).toBe('node:sqlite');
    if (major < 22) expect(sqliteEngineName()).toBe('better-sqlite3');
  });

  it('reads and writes the same files on Node.js 24’s node:sqlite as on this Node.js', async () => {
    const here = openSqliteStore({ dataDir });
    await here.insert('checkout:written-here', 'ready', 60_000);
    await here.compareAndSet('checkout:written-here', 1, 'ready, refunded', 60_000);
    await here.queue('watch').add({ id: 'written-here', partition: 'shop', dueAtMs: 1 });
    // A record the store keeps deflated, read there as a Uint8Array where better-sqlite3 reads a Buffer.
    await here.insert('quote:written-here', QUOTE, 60_000);
    await here.close();

    const there = onProductionNode(`
const store = openSqliteStore({ dataDir });
const read = await store.get('checkout:written-here');
const item = await store.queue('watch').get('written-here');
const quote = (await store.get('quote:written-here'))?.value;
await store.insert('checkout:written-there', 'awaiting_payment', 60000);
await store.insert('quote:written-there', quote, 60000);
console.log(JSON.stringify({ engine: store.engine, read, item, quote }));
await store.close();`);
    expect(there).toEqual({
      engine: 'node:sqlite',
      read: { value: 'ready, refunded', version: 2 },
      item: { id: 'written-here', partition: 'shop', dueAtMs: 1 },
      quote: QUOTE,
    });

    const again = openSqliteStore({ dataDir });
    try {
      expect(await again.get('checkout:written-there')).toEqual({ value: 'awaiting_payment', version: 1 });
      expect(await again.get('quote:written-there')).toEqual({ value: QUOTE, version: 1 });
    } finally {
      await again.close();
    }
  }, 60_000);

  it('leaves the same files on both engines once rows are gone: no byte of them, a smaller file, modes 0600', () => {
    const there = onProductionNode(`
const { eraseFromDisk } = await import(${JSON.stringify(ERASURE_MODULE)});
process.umask(0o022);
const after = await eraseFromDisk((now) => openSqliteStore({ dataDir: dataDir + '/erased-there', now }));
console.log(JSON.stringify(after));`) as DiskAfterErasure;
    expect(there.engine).toBe('node:sqlite');
    expect(there.addressFoundIn).toEqual({});
    expect(there.bytesAfter).toBeLessThan(there.bytesBefore / 10);
    expect(there).toMatchObject({
      modes: {
        'esim-bff.lock': '0600',
        'esim-bff.sqlite': '0600',
        'esim-bff.sqlite-shm': '0600',
        'esim-bff.sqlite-wal': '0600',
      },
      folderMode: '0700',
      autoVacuum: 2,
      secureDelete: 2,
      keptReadsBack: true,
    });
  }, 60_000);
});
