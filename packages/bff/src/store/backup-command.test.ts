/**
 * `backup` and `restore` on the embedded store: a copy taken from a store that is open and holding its data
 * directory (as a running BFF does), written `0600` whatever the umask and never over a file; its restore into a
 * new folder (`0700`, files `0600`) that a store then opens with every value and version; the refusals, each
 * saying what to do — a folder that is not empty, a file that is no backup, a backup of a newer release, Redis
 * (which has backups of its own) — and `export-state`'s refusal of a directory in use, which names `backup`.
 * Purchases running during a backup, and a BFF serving the restored copy: reliability/src/instances/backup-while-serving.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BackupCommand, runBackupCommand } from './backup-command';
import { backupStore } from './sqlite-backup';
import { openSqlite } from './sqlite-engine';
import { LOCK_FILE } from './sqlite-instance-lock';
import { SCHEMA_VERSION } from './sqlite-schema';
import { DATABASE_FILE, openSqliteStore, type SqliteStore } from './sqlite-store';
import { runStateCommand } from './state-transfer-command';
import { STORE_KEYS } from './store';

const root = mkdtempSync(join(tmpdir(), 'esim-backup-'));
const open: SqliteStore[] = [];
let umaskBefore: number;
beforeAll(() => {
  // The umask most hosts give a service: files are readable by all unless the command says otherwise.
  umaskBefore = process.umask(0o022);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});
afterAll(() => {
  process.umask(umaskBefore);
  rmSync(root, { recursive: true, force: true });
});

const newFolder = () => mkdtempSync(join(root, 'case-'));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

function store(dataDir: string): SqliteStore {
  const opened = openSqliteStore({ dataDir });
  open.push(opened);
  return opened;
}

/** Run one command as `node server.mjs <command> <args>` would; its exit code, stdout and stderr. */
async function command(name: BackupCommand, env: NodeJS.ProcessEnv, args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  const code = await runBackupCommand(name, env, { stdout, stderr }, args);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** A quote as the BFF stores it: a record large enough that the store keeps it compressed. */
const QUOTE = readFileSync(new URL('./record-fixtures/quote.issue.json', import.meta.url), 'utf8');

/** A store holding two checkouts (one rewritten once), a quote, a counter and a queued item, left open. */
async function storeWithSales(dataDir: string): Promise<SqliteStore> {
  const serving = store(dataDir);
  await serving.insert(STORE_KEYS.quote('quo_one'), QUOTE, 3_600_000);
  await serving.insert(STORE_KEYS.checkout('chk_one'), '{"status":"ready"}', 3_600_000);
  await serving.insert(STORE_KEYS.checkout('chk_two'), '{"status":"placing"}', 3_600_000);
  await serving.compareAndSet(STORE_KEYS.checkout('chk_two'), 1, '{"status":"ready"}', 3_600_000);
  await serving.increment(STORE_KEYS.counter('ip'), 3, 60_000);
  await serving.queue('watch').add({ id: 'chk_two', partition: 'shop', dueAtMs: 42 });
  return serving;
}

describe('backup', () => {
  it('copies the store a running BFF holds, into a new file of its owner’s alone, never over a file', async () => {
    const dataDir = join(newFolder(), 'data');
    const serving = await storeWithSales(dataDir);
    const file = join(newFolder(), 'esim-bff.backup.sqlite');

    const taken = await command('backup', { ESIM_BFF_DATA_DIR: dataDir }, [file]);
    expect(taken.code).toBe(0);
    expect(mode(file)).toBe('0600');
    expect(taken.stderr).toMatch(
      new RegExp(
        `backed up the embedded store in ${dataDir} to ${file} \\(2 checkouts, [\\d.]+ MB, schema version ${SCHEMA_VERSION}\\)`,
      ),
    );
    expect(taken.stderr).toMatch(/personal data .*e-mail addresses.*0600/s);
    // The store serving meanwhile kept its directory and goes on writing.
    await serving.insert(STORE_KEYS.checkout('chk_after'), '{"status":"ready"}', 3_600_000);
    expect(await serving.get(STORE_KEYS.checkout('chk_after'))).not.toBeNull();
    // One self-contained file: the copy reads alone, without a WAL beside it.
    expect(readdirSync(join(file, '..'))).toEqual(['esim-bff.backup.sqlite']);

    await expect(command('backup', { ESIM_BFF_DATA_DIR: dataDir }, [file])).rejects.toThrow(
      `${file} exists already: delete it or move it away, or name another file`,
    );
  });

  it('names the folder a backup cannot be created in', async () => {
    const dataDir = (await storeWithSales(join(newFolder(), 'data'))).dataDir;
    const nowhere = join(newFolder(), 'no-such-folder');
    await expect(
      command('backup', { ESIM_BFF_DATA_DIR: dataDir }, [join(nowhere, 'backup.sqlite')]),
    ).rejects.toThrow(
      `cannot create ${join(nowhere, 'backup.sqlite')}: its folder ${nowhere} does not exist`,
    );
  });

  it('says what to do when a BFF of a release before backups holds the database alone', async () => {
    const dataDir = join(newFolder(), 'data');
    await (await storeWithSales(dataDir)).close();
    // As that release opened it: exclusive locking, its WAL written.
    const earlier = openSqlite(join(dataDir, DATABASE_FILE));
    try {
      earlier.exec('PRAGMA locking_mode = EXCLUSIVE');
      earlier.exec('PRAGMA journal_mode = WAL');
      earlier.transaction(() => undefined);
      const file = join(newFolder(), 'backup.sqlite');
      await expect(backupStore(dataDir, file, { waitForLockMs: 0 })).rejects.toThrow(
        `the database in ${dataDir} stayed locked for 0 s: a BFF of a release before backups holds it alone. ` +
          'Restart that BFF on this release',
      );
      // Nothing is left behind.
      expect(() => statSync(file)).toThrow(/ENOENT/);
    } finally {
      earlier.close();
    }
  });

  it('refuses a data directory without a store, naming ESIM_BFF_DATA_DIR', async () => {
    const missing = join(newFolder(), 'mistyped');
    await expect(
      command('backup', { ESIM_BFF_DATA_DIR: missing }, [join(newFolder(), 'backup.sqlite')]),
    ).rejects.toThrow(new RegExp(`no embedded store in ${missing} .*ESIM_BFF_DATA_DIR`));
  });
});

describe('restore', () => {
  it('writes a backup into a new folder (0700, files 0600) that a store opens with every value', async () => {
    const backup = join(newFolder(), 'backup.sqlite');
    await command(
      'backup',
      { ESIM_BFF_DATA_DIR: (await storeWithSales(join(newFolder(), 'data'))).dataDir },
      [backup],
    );
    const restoredDir = join(newFolder(), 'restored');

    const restored = await command('restore', { ESIM_BFF_DATA_DIR: restoredDir }, [backup]);
    expect(restored.code).toBe(0);
    expect(restored.stderr).toContain(`restored ${backup} into ${restoredDir} (2 checkouts`);
    expect(restored.stderr).toContain(`start the BFF with ESIM_BFF_DATA_DIR=${restoredDir}`);
    expect(mode(restoredDir)).toBe('0700');
    expect(readdirSync(restoredDir).sort()).toEqual([LOCK_FILE, DATABASE_FILE]);
    for (const name of readdirSync(restoredDir)) expect(mode(join(restoredDir, name)), name).toBe('0600');

    const copy = store(restoredDir);
    expect(await copy.get(STORE_KEYS.checkout('chk_one'))).toEqual({
      value: '{"status":"ready"}',
      version: 1,
    });
    expect(await copy.get(STORE_KEYS.checkout('chk_two'))).toEqual({
      value: '{"status":"ready"}',
      version: 2,
    });
    expect(await copy.get(STORE_KEYS.quote('quo_one'))).toEqual({ value: QUOTE, version: 1 });
    expect((await copy.increment(STORE_KEYS.counter('ip'), 1, 60_000)).count).toBe(4);
    expect(await copy.queue('watch').get('chk_two')).toEqual({
      id: 'chk_two',
      partition: 'shop',
      dueAtMs: 42,
    });
  });

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    const backup = join(newFolder(), 'backup.sqlite');
    const dataDir = join(newFolder(), 'data');
    await command('backup', { ESIM_BFF_DATA_DIR: (await storeWithSales(dataDir)).dataDir }, [backup]);
    const before = readdirSync(dataDir).sort();
    await expect(command('restore', { ESIM_BFF_DATA_DIR: dataDir }, [backup])).rejects.toThrow(
      `the data directory ${dataDir} is not empty (it holds ${DATABASE_FILE}, ${DATABASE_FILE}-shm, ` +
        `${DATABASE_FILE}-wal): restore into a new or empty folder (ESIM_BFF_DATA_DIR) and start the BFF on it; ` +
        'to replace this store, stop its BFF and move the folder aside first',
    );
    expect(readdirSync(dataDir).sort()).toEqual(before);

    const other = join(newFolder(), 'data');
    mkdirSync(other, { mode: 0o700 });
    writeFileSync(join(other, 'notes.txt'), 'mine');
    await expect(command('restore', { ESIM_BFF_DATA_DIR: other }, [backup])).rejects.toThrow(
      `the data directory ${other} is not empty (it holds notes.txt): restore into a new or empty folder`,
    );
    expect(readdirSync(other)).toEqual(['notes.txt']);
  });

  it('refuses a file that is not a backup of the store, or one of a newer release, writing nothing', async () => {
    const folder = newFolder();
    const target = join(folder, 'data');
    const restoreFrom = (file: string) => command('restore', { ESIM_BFF_DATA_DIR: target }, [file]);

    const text = join(folder, 'notes.txt');
    writeFileSync(text, 'not a database, a text file '.repeat(200));
    await expect(restoreFrom(text)).rejects.toThrow(`${text} is not a backup of the embedded store`);
    await expect(restoreFrom(join(folder, 'absent.sqlite'))).rejects.toThrow(
      /absent\.sqlite is not a backup of the embedded store: ENOENT/,
    );

    const otherDatabase = join(folder, 'other.sqlite');
    const other = openSqlite(otherDatabase);
    other.exec('CREATE TABLE songs (title TEXT)');
    other.close();
    await expect(restoreFrom(otherDatabase)).rejects.toThrow(
      `${otherDatabase} is not a backup of the embedded store: an SQLite database, but its tables are not those of the store`,
    );

    const newer = join(folder, 'newer.sqlite');
    await command('backup', { ESIM_BFF_DATA_DIR: (await storeWithSales(join(folder, 'source'))).dataDir }, [
      newer,
    ]);
    const next = openSqlite(newer);
    next.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    next.close();
    await expect(restoreFrom(newer)).rejects.toThrow(
      `${newer} was taken by a newer release (schema version ${SCHEMA_VERSION + 1}; this release knows up to ${SCHEMA_VERSION}): restore it with that release or a later one`,
    );
    // Nothing was created for any of them.
    expect(() => statSync(target)).toThrow(/ENOENT/);
  });
});

describe('on Redis, and the export of a directory in use', () => {
  it('says Redis keeps its own backups, and what to do, for both commands', async () => {
    const env = { ESIM_BFF_REDIS_URL: 'redis://127.0.0.1:1/0' };
    await expect(command('backup', env, [join(newFolder(), 'backup.sqlite')])).rejects.toThrow(
      /state is in Redis, which backs itself up.*RDB snapshot \(`redis-cli -u <url> --rdb <file>`.*appendonly yes/s,
    );
    await expect(command('restore', env, [join(newFolder(), 'backup.sqlite')])).rejects.toThrow(
      /state is in Redis, restored from its own files.*dump\.rdb.*export-state.*import-state/s,
    );
  });

  it('takes one file and explains itself with --help', async () => {
    const help = await command('backup', {}, ['--help']);
    expect(help.stdout).toMatch(/^Usage: node server\.mjs backup <file>\n.*while the BFF serves.*0600/s);
    expect((await command('restore', {}, ['-h'])).stdout).toMatch(
      /^Usage: node server\.mjs restore <file>\n.*empty/s,
    );
    await expect(command('backup', {}, [])).rejects.toThrow(/backup takes one argument, the backup's file/);
    await expect(command('restore', {}, ['a', 'b'])).rejects.toThrow(
      /restore takes one argument.*given: a b/,
    );
  });

  it('refuses to export from a directory a BFF holds, naming `backup` as the way to copy it meanwhile', async () => {
    const dataDir = join(newFolder(), 'data');
    await storeWithSales(dataDir);
    const io = { stdin: Readable.from(['']), stdout: new PassThrough(), stderr: new PassThrough() };
    await expect(runStateCommand('export-state', { ESIM_BFF_DATA_DIR: dataDir }, io)).rejects.toThrow(
      `the data directory ${dataDir} is in use by another BFF process: export-state reads the store of a ` +
        'stopped BFF (to move it to Redis). For a copy while the BFF serves, take a backup instead: ' +
        '`node server.mjs backup <file>`',
    );
  });
});
