/**
 * @module
 * The SQLite engine under the embedded store, behind one small synchronous interface: Node's built-in
 * `node:sqlite` where the running Node.js has it (≥ 22.13, and 24, the production line), else the
 * `better-sqlite3` package. Either is loaded only when a database is opened, so nothing loads unless the
 * embedded store is used; both read and write the same files.
 */
import { createRequire } from 'node:module';

/** A value bound to a statement's `?` or read from a row (a BLOB: a `Uint8Array`, a `Buffer` on better-sqlite3). */
export type SqlValue = string | number | bigint | null | Uint8Array;
/** A row read by `get` or `all`, by column name. */
export type SqlRow = Record<string, SqlValue>;

/** A prepared statement. */
export interface SqliteStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

/** An open database. */
export interface SqliteDatabase {
  /** Which engine opened it. */
  readonly engine: SqliteEngineName;
  /** Run one or more statements without results (schema, pragmas). */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /**
   * Run `work` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it throws. Inside
   * a transaction opened with {@link begin} (the store's write batch), a savepoint of it instead: `work`'s writes
   * stand or fall together, and join that transaction's commit.
   */
  transaction<T>(work: () => T): T;
  /** Open a write transaction (`BEGIN IMMEDIATE`) that {@link commit} ends: the store's batch of one turn. */
  begin(): void;
  /** Commit the transaction {@link begin} opened; rolled back when the commit fails (the error thrown). */
  commit(): void;
  /** Whether a transaction is open (SQLite ends one by itself after some errors: a full disk, an I/O error). */
  readonly inTransaction: boolean;
  close(): void;
}

export type SqliteEngineName = 'node:sqlite' | 'better-sqlite3';

/** No SQLite engine can be loaded on this Node.js: the message says what to do. */
export class SqliteEngineMissingError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(
      `the embedded store needs SQLite: Node.js ${process.versions.node} has no node:sqlite and the ` +
        'better-sqlite3 package cannot be loaded. Run the BFF on Node.js 22.13 or later (24 is the production ' +
        'line), install better-sqlite3 beside it (npm install better-sqlite3@12.11.1), or keep its state in ' +
        'Redis (ESIM_BFF_REDIS_URL).',
      options,
    );
    this.name = 'SqliteEngineMissingError';
  }
}

/** The shape of `node:sqlite`'s `DatabaseSync` that this module uses (Node 20's types do not have it). */
interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    readonly isTransaction: boolean;
    exec(sql: string): void;
    prepare(sql: string): SqliteStatement;
    close(): void;
  };
}

/** The shape of `better-sqlite3`'s `Database` that this module uses. */
type BetterSqlite3Constructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => {
  readonly inTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
};

/** `node:sqlite` if this Node.js has it without a flag, else null. */
function builtinSqlite(): NodeSqliteModule | null {
  // `getBuiltinModule` instead of an import: a bundler leaves it alone, and Node 20 answers undefined.
  const getBuiltinModule = (process as unknown as { getBuiltinModule?: (id: string) => unknown })
    .getBuiltinModule;
  try {
    const sqlite = getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined;
    return sqlite?.DatabaseSync === undefined ? null : sqlite;
  } catch {
    return null;
  }
}

/** `better-sqlite3`, resolved beside this file (the package's `node_modules`, or beside a release's server.mjs). */
function betterSqlite3(): BetterSqlite3Constructor {
  // A name in a variable: the release's bundler must neither bundle this native package nor list it as an import.
  const name = 'better-sqlite3';
  try {
    return createRequire(import.meta.url)(name) as BetterSqlite3Constructor;
  } catch (error) {
    throw new SqliteEngineMissingError({ cause: error });
  }
}

/** Which engine {@link openSqlite} would use here, without opening anything. */
export function sqliteEngineName(): SqliteEngineName {
  return builtinSqlite() === null ? 'better-sqlite3' : 'node:sqlite';
}

/** How {@link openSqlite} opens a database. */
export interface OpenSqliteOptions {
  /** The engine to use instead of the one this Node.js offers (the benchmark compares both). */
  engine?: SqliteEngineName;
  /** Read only: the file must exist, and nothing is written to it (a backup reads a running BFF's database so). */
  readOnly?: boolean;
}

/** SQLite's answer when another connection holds the lock it needs (`SQLITE_BUSY`). */
export function isDatabaseLocked(error: unknown): boolean {
  const text = `${(error as { code?: string })?.code ?? ''} ${(error as Error)?.message ?? ''}`;
  return /SQLITE_BUSY|database is locked/i.test(text);
}

/** Open (or create) the database file at `path` with the engine this Node.js offers. */
export function openSqlite(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const prefer = options.engine;
  const readOnly = options.readOnly === true;
  const builtin = prefer === 'better-sqlite3' ? null : builtinSqlite();
  if (prefer === 'node:sqlite' && builtin === null) throw new SqliteEngineMissingError();
  const engine: SqliteEngineName = builtin === null ? 'better-sqlite3' : 'node:sqlite';
  const raw =
    builtin === null
      ? new (betterSqlite3())(path, { readonly: readOnly, fileMustExist: readOnly })
      : new builtin.DatabaseSync(path, { readOnly });
  const inTransaction =
    builtin === null
      ? () => (raw as { inTransaction: boolean }).inTransaction
      : () => (raw as { isTransaction: boolean }).isTransaction;
  // Prepared once: a store runs them for most of its writes.
  let control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo', SqliteStatement>;
  const controls = () => {
    control ??= {
      begin: raw.prepare('BEGIN IMMEDIATE'),
      commit: raw.prepare('COMMIT'),
      rollback: raw.prepare('ROLLBACK'),
      savepoint: raw.prepare('SAVEPOINT step'),
      release: raw.prepare('RELEASE step'),
      undo: raw.prepare('ROLLBACK TO step'),
    };
    return control;
  };
  /** Roll back what is open; after a failed COMMIT SQLite may have rolled back already, and the first error counts. */
  const rollBack = () => {
    try {
      if (inTransaction()) controls().rollback.run();
    } catch {}
  };
  let depth = 0;
  return {
    engine,
    exec: (sql) => raw.exec(sql),
    prepare: (sql) => raw.prepare(sql),
    transaction<T>(work: () => T): T {
      // Nested calls join the outer transaction (SQLite has no nested BEGIN).
      if (depth > 0) return work();
      const statements = controls();
      const batched = inTransaction();
      (batched ? statements.savepoint : statements.begin).run();
      depth += 1;
      try {
        const result = work();
        (batched ? statements.release : statements.commit).run();
        return result;
      } catch (error) {
        if (!batched) rollBack();
        else if (inTransaction()) {
          // Only this work's writes are undone: the batch it joined goes on.
          statements.undo.run();
          statements.release.run();
        }
        throw error;
      } finally {
        depth -= 1;
      }
    },
    begin: () => void controls().begin.run(),
    commit() {
      try {
        controls().commit.run();
      } catch (error) {
        rollBack();
        throw error;
      }
    },
    get inTransaction() {
      return inTransaction();
    },
    close: () => raw.close(),
  };
}
