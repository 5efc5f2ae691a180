/**
 * @module
 * One transaction per turn of the event loop for the embedded store's writes. Each write step (a value, a counter,
 * an index membership, a queue item, an entry book's change) joins the transaction the turn opened, and that
 * transaction commits once, when the turn ends (`setImmediate`) or sooner when the store needs the database
 * settled (a sweep, a checkpoint, its close). A checkout's change — its index memberships, its watch and its
 * record, written together — and the counters of the requests served in the same turn are thus one commit: in
 * WAL mode a commit appends every page it changed, so writes that share pages (the counters' and the indexes'
 * b-tree leaves) are written once instead of once per statement.
 *
 * Crash safety is unchanged for what waits: a durable write resolves only after the commit of its transaction and
 * then the group commit's sync that covers it (`sqlite-group-commit.ts`); a commit that fails rejects the
 * durable writes it held as the store being unavailable. What does not wait (counters, index steps) was already
 * committed without a sync; it is now committed at the end of its turn, so a killed process can lose the steps of
 * the turn it was killed in, as a power cut could lose those of the unsynced tail before.
 */
import type { SqliteDatabase } from './sqlite-engine';
import { StoreUnavailableError } from './store';

/** A write step's result and the commit of the transaction that holds it. */
export interface BatchedWrite<T> {
  result: T;
  /** Resolves once the step's transaction is committed; rejects when that commit failed. */
  committed: Promise<void>;
}

/** The turn's write transaction of one database. */
export interface WriteBatch {
  /** Run `work` (synchronous) in the turn's transaction, opening it when none is open. */
  write<T>(work: () => T): BatchedWrite<T>;
  /** Commit the open transaction now (before a checkpoint or a close); rejects nothing when none is open. */
  commit(): void;
  /**
   * The database as code beside the store's steps uses it (the state transfer, a benchmark's checkpoint): a
   * statement run with `exec` (a pragma, a checkpoint, a `BEGIN`) commits the turn's writes first.
   */
  readonly database: SqliteDatabase;
}

interface Turn {
  committed: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function newTurn(): Turn {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const committed = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A turn of writes that wait for nothing has no one to hear its failure; those that wait hear it.
  committed.catch(() => undefined);
  return { committed, resolve, reject };
}

const failed = (error: unknown) =>
  new StoreUnavailableError(`the embedded store could not commit its writes: ${(error as Error).message}`, {
    cause: error,
  });

/** The write batch of `db`. */
export function createWriteBatch(db: SqliteDatabase): WriteBatch {
  let open: Turn | null = null;

  function commit(): void {
    const turn = open;
    if (turn === null) return;
    open = null;
    // SQLite rolled the transaction back by itself (a failed write of the turn said so already).
    if (!db.inTransaction) {
      turn.reject(failed(new Error('the transaction was rolled back')));
      return;
    }
    try {
      db.commit();
      turn.resolve();
    } catch (error) {
      turn.reject(failed(error));
    }
  }

  return {
    write(work) {
      if (open !== null && !db.inTransaction) commit();
      if (open === null) {
        db.begin();
        open = newTurn();
        setImmediate(commit);
      }
      const turn = open;
      try {
        return { result: work(), committed: turn.committed };
      } catch (error) {
        // An error that ended the whole transaction fails the turn's other writes too.
        if (!db.inTransaction) commit();
        throw error;
      }
    },
    commit,
    database: {
      engine: db.engine,
      exec(sql) {
        commit();
        db.exec(sql);
      },
      prepare: (sql) => db.prepare(sql),
      transaction: (work) => db.transaction(work),
      begin: () => db.begin(),
      commit: () => db.commit(),
      get inTransaction() {
        return db.inTransaction;
      },
      close: () => db.close(),
    },
  };
}
