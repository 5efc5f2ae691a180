/**
 * The embedded store's move to compact records (schema 3) on last month's data file: a database as the release
 * before wrote it (schema 2, every value text in a table WITHOUT ROWID), holding the records of every kind the BFF
 * keeps, is migrated in place when a store opens it, and every record reads back as it was, with its version and
 * expiry. A migration that fails, or a process killed while it runs, leaves the file as that release wrote it,
 * and the next open migrates it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from './sqlite-engine';
import {
  MIGRATIONS,
  migrate,
  SCHEMA_VERSION,
  schemaObjectsAt,
  schemaObjectsOf,
  schemaVersionOf,
} from './sqlite-schema';
import { DATABASE_FILE, openSqliteStore } from './sqlite-store';
import { encodeValue } from './sqlite-value-encoding';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE_MODULE = fileURLToPath(new URL('./sqlite-engine.ts', import.meta.url));
const SCHEMA_MODULE = fileURLToPath(new URL('./sqlite-schema.ts', import.meta.url));
const fixtures = new URL('./record-fixtures/', import.meta.url);
const root = mkdtempSync(join(tmpdir(), 'esim-sqlite-schema-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The release before's schema version, whose files this release must open. */
const BEFORE = 2;
/** The schema version of compact records. */
const COMPACT = 3;
/** Expiry of the records written here: near 2100. */
const LATER = 4_102_444_800_000;

/** A record as the database holds it. */
interface Row {
  key: string;
  value: string;
  version: number;
}

/**
 * Last month's data file in a new data directory: the release before's dump (`embedded-store.schema-2.sql`) and
 * every record fixture — checkouts, quotes, ledgers, deliveries of that release — 40 times over under keys of their
 * kind, written as that release wrote values (text, in its table). Answers the folder and the records.
 */
function lastMonthsDataDir(): { dataDir: string; rows: Row[] } {
  const dataDir = mkdtempSync(join(root, 'data-'));
  const db = openSqlite(join(dataDir, DATABASE_FILE));
  try {
    db.exec(readFileSync(new URL('embedded-store.schema-2.sql', fixtures), 'utf8'));
    expect(schemaVersionOf(db)).toBe(BEFORE);
    const insert = db.prepare('INSERT INTO entries (key, value, version, expires_at) VALUES (?, ?, ?, ?)');
    const records = readdirSync(fixtures).filter((name) => name.endsWith('.json'));
    db.transaction(() => {
      for (let copy = 0; copy < 40; copy += 1) {
        for (const [index, name] of records.entries()) {
          const value = readFileSync(new URL(name, fixtures), 'utf8');
          insert.run(`${name.split('.')[0]}:copy-${copy}-${name}`, value, 1 + ((copy + index) % 5), LATER);
        }
      }
      // Expired already: the release before had not swept it yet, and this one does not read it either.
      insert.run('quote:expired', readFileSync(new URL('quote.issue.json', fixtures), 'utf8'), 1, 1);
    });
    return { dataDir, rows: rowsOf(db) };
  } finally {
    db.close();
  }
}

/** Every live row of `entries`, by key, its value as the store reads it. */
function rowsOf(db: SqliteDatabase): Row[] {
  return db
    .prepare('SELECT key, version FROM entries WHERE expires_at > ? ORDER BY key')
    .all(Date.now())
    .map((row) => ({ key: String(row.key), value: '', version: Number(row.version) }));
}

/** Open a store on `dataDir` and read every row of `rows` through it. */
async function readThroughStore(dataDir: string, rows: Row[]): Promise<Row[]> {
  const store = openSqliteStore({ dataDir });
  try {
    const read: Row[] = [];
    for (const { key } of rows) {
      const found = await store.get(key);
      read.push({ key, value: found?.value ?? '(missing)', version: found?.version ?? 0 });
    }
    expect(await store.get('quote:expired')).toBeNull();
    expect(schemaVersionOf(store.database)).toBe(SCHEMA_VERSION);
    return read;
  } finally {
    await store.close();
  }
}

/** The rows with the values the release before stored (text, read straight from its table). */
function withValues(dataDir: string, rows: Row[]): Row[] {
  const db = openSqlite(join(dataDir, DATABASE_FILE), { readOnly: true });
  try {
    const value = db.prepare('SELECT value FROM entries WHERE key = ?');
    return rows.map((row) => ({ ...row, value: String(value.get(row.key)?.value) }));
  } finally {
    db.close();
  }
}

/** The file is still the release before's: its version, its tables, its text values. */
function expectReleaseBefore(dataDir: string, rows: Row[]): void {
  const db = openSqlite(join(dataDir, DATABASE_FILE));
  try {
    expect(schemaVersionOf(db)).toBe(BEFORE);
    expect(schemaObjectsOf(db)).toEqual(schemaObjectsAt(BEFORE));
    expect(rowsOf(db).map(({ key, version }) => ({ key, version }))).toEqual(
      rows.map(({ key, version }) => ({ key, version })),
    );
    expect(withValues(dataDir, rows)).toEqual(rows);
  } finally {
    db.close();
  }
}

describe('compact records (schema 3) on last month’s data file', () => {
  it('migrates it in place at open: every record reads as it was, new large values are kept compressed', async () => {
    const { dataDir, rows } = lastMonthsDataDir();
    const before = withValues(dataDir, rows);
    expect(await readThroughStore(dataDir, rows)).toEqual(before);

    const store = openSqliteStore({ dataDir });
    try {
      const db = store.database;
      expect(schemaObjectsOf(db)).toEqual(schemaObjectsAt(SCHEMA_VERSION));
      // A rowid table now, found by key through its unique index.
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT value FROM entries WHERE key = ?').all('x');
      expect(plan.map((row) => String(row.detail)).join('\n')).toMatch(/USING INDEX entries_by_key/);
      // The copied rows stay text; a record written now is kept compressed, and reads back whole.
      const quote = readFileSync(new URL('quote.issue.json', fixtures), 'utf8');
      await store.insert('quote:written-now', quote, 60_000);
      const kept = (key: string) =>
        db
          .prepare('SELECT typeof(value) AS type, length(value) AS bytes FROM entries WHERE key = ?')
          .get(key);
      expect(kept('quote:written-now')).toEqual({
        type: 'blob',
        bytes: (encodeValue(quote) as Uint8Array).length,
      });
      expect(Number(kept('quote:written-now')?.bytes)).toBeLessThan(quote.length * 0.7);
      expect(kept(rows[0]?.key ?? '')?.type).toBe('text');
      expect(await store.get('quote:written-now')).toEqual({ value: quote, version: 1 });
    } finally {
      await store.close();
    }
  });

  it('leaves the file as the release before wrote it when the migration fails half-way', async () => {
    const { dataDir, rows } = lastMonthsDataDir();
    const before = withValues(dataDir, rows);
    const db = openSqlite(join(dataDir, DATABASE_FILE));
    try {
      db.exec('PRAGMA journal_mode = WAL');
      // The whole of step 3 runs (the copy, the old table dropped, the new one renamed and indexed), then a write
      // that the new table's row ids refuse fails the migration.
      const failing = `INSERT INTO entries (id, key, value, version, expires_at)
        SELECT id, key || ' again', value, 1, 1 FROM entries LIMIT 1`;
      expect(() => migrate(db, [...MIGRATIONS, failing])).toThrow(/UNIQUE constraint failed: entries\.id/);
    } finally {
      db.close();
    }
    expectReleaseBefore(dataDir, before);
    expect(await readThroughStore(dataDir, rows)).toEqual(before);
  });

  it('leaves the file as the release before wrote it when its process is killed mid-migration', async () => {
    const { dataDir, rows } = lastMonthsDataDir();
    const before = withValues(dataDir, rows);
    // The migration run inside a transaction that never ends: killed after every statement of it has run, before
    // the commit — the latest instant a crash can interrupt it.
    const script = `
const { openSqlite } = await import(${JSON.stringify(ENGINE_MODULE)});
const { migrate, schemaObjectsOf, schemaVersionOf } = await import(${JSON.stringify(SCHEMA_MODULE)});
const db = openSqlite(process.argv[1]);
db.exec('PRAGMA journal_mode = WAL');
db.transaction(() => {
  migrate(db);
  process.stdout.write(JSON.stringify({ version: schemaVersionOf(db), objects: schemaObjectsOf(db) }) + '\\n');
  for (;;) {}
});`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, join(dataDir, DATABASE_FILE)],
      { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_, signal) => resolve(signal)),
    );
    let migrated: unknown;
    try {
      migrated = await new Promise<unknown>((resolve, reject) => {
        let said = '';
        child.stdout.on('data', (chunk) => {
          said += String(chunk);
          if (said.includes('\n')) resolve(JSON.parse(said));
        });
        child.on('exit', (code) => reject(new Error(`the migrating process ended by itself (${code})`)));
      });
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    expect(migrated).toEqual({ version: SCHEMA_VERSION, objects: schemaObjectsAt(SCHEMA_VERSION) });
    expect(schemaObjectsAt(COMPACT)).toContain('index entries_by_key');

    expectReleaseBefore(dataDir, before);
    expect(await readThroughStore(dataDir, rows)).toEqual(before);
  }, 60_000);
});
