/**
 * @module
 * The partner lists' indexes built for records written without them: checkouts, webhook deliveries and help
 * requests of a release before the indexes (an upgraded data directory or Redis), or moved in by a state import
 * (the indexes are not exported; the import drops the marks). One build per kind of record and store, at start, in
 * the background, a page of keys at a time; its mark (`STORE_KEYS.indexBuilt`) is set when every record of the
 * kind then stored is indexed. Records written meanwhile index themselves, and indexing one twice changes nothing.
 *
 * Instances sharing a store build each kind once between them: the builder holds a short lease in the store
 * (`STORE_KEYS.indexBuildLease`), renewed while it works; the others look for the mark now and then, and one of
 * them takes the lease over when it runs out unmarked (its builder died or was stopped part-way).
 */
import { randomUUID } from 'node:crypto';
import type { BackgroundWork } from '../background-stop';
import type { Logger } from '../logger';
import { startLeaseHeartbeat } from './lease-heartbeat';
import { type IndexedKind, STORE_KEYS, type Store, StoreUnavailableError } from './store';

/** One kind of record the build indexes: where its records are and how one is read and indexed. */
export interface IndexedRecords<R> {
  /** Names the kind's mark and lease. */
  kind: IndexedKind;
  /**
   * Names the mark too, when the indexes' names can change: the id of the key that names them (a build under a
   * new key, after a rotation of the root secret or the upgrade to keyed names, moves every record to its names).
   */
  version?: string;
  /** The key prefix of its records (`STORE_KEYS`). */
  prefix: string;
  /** The record a stored value holds; throws when this release cannot read it (it is skipped, not listed). */
  read(value: string): R;
  /**
   * Put the record in every index it belongs to; false when it is not listed after all (skipped). Indexing one
   * twice changes nothing. A failure that may pass (the store, the upstream) throws: the build is tried again.
   */
  index(record: R): Promise<boolean>;
}

/** What a build is given besides its kind. */
export interface IndexBuildOptions {
  store: Store;
  logger: Logger;
  /** True once the BFF is closing: the build stops after its page, unmarked (the next start does it again). */
  stopped?: () => boolean;
  /** How long the builder's lease lasts unrenewed: how soon another instance takes over from one that died. */
  leaseMs?: number;
  /** How often an instance waiting for another's build looks for the mark (and for a lease run out). */
  waitMs?: number;
}

/** How long a mark is kept: when it is gone the records are indexed again (which changes nothing). */
const MARK_KEPT_MS = 365 * 24 * 60 * 60 * 1000;
const PAGE = 200;
const LEASE_MS = 30_000;
const WAIT_MS = 2_000;

/** Wait `ms`, in short steps so that a closing BFF is not held up; answers early once `stopped`. */
async function pause(ms: number, stopped: () => boolean): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until && !stopped(); ) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, until - Date.now()))));
  }
}

/**
 * Index every stored record of `records`' kind unless the store holds its mark; answers how many this instance
 * indexed (0 when another instance built them, or they were built before).
 */
export async function rebuildIndexes<R>(
  records: IndexedRecords<R>,
  options: IndexBuildOptions,
): Promise<number> {
  const { store } = options;
  const stopped = options.stopped ?? (() => false);
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const mark = STORE_KEYS.indexBuilt(records.kind, records.version);
  const lease = STORE_KEYS.indexBuildLease(records.kind);
  const holder = randomUUID();
  let indexed = 0;
  while (!stopped()) {
    if ((await store.get(mark)) !== null) return indexed;
    if (!(await store.insert(lease, holder, leaseMs))) {
      // Another instance builds: its mark ends the wait; a lease that runs out unmarked is taken over.
      await pause(options.waitMs ?? WAIT_MS, stopped);
      continue;
    }
    let version = 1;
    const heartbeat = startLeaseHeartbeat(
      async () => {
        const renewed = await store.compareAndSet(lease, version, holder, leaseMs);
        if (renewed) version += 1;
        return renewed;
      },
      Math.floor(leaseMs / 3),
    );
    let finished = false;
    try {
      const built = await indexEvery(records, options, () => stopped() || !heartbeat.held);
      indexed += built.indexed;
      finished = built.finished;
    } finally {
      await heartbeat.stop();
      // Let go at once, so that a waiting instance goes on (after a stop part-way, a failure) without waiting it
      // out; a lease that cannot be let go now runs out by itself.
      if (heartbeat.held) await store.compareAndDelete(lease, version).catch(() => false);
    }
    if (finished) {
      if (indexed > 0)
        options.logger.info('partner lists: stored records indexed', { kind: records.kind, indexed });
      return indexed;
    }
  }
  return indexed;
}

/** The scan under the lease: every record read and indexed, then the mark; stops after a page once `stop()`. */
async function indexEvery<R>(
  records: IndexedRecords<R>,
  options: IndexBuildOptions,
  stop: () => boolean,
): Promise<{ indexed: number; finished: boolean }> {
  const { store } = options;
  const mark = STORE_KEYS.indexBuilt(records.kind, records.version);
  // Built by the holder before this one while its lease was being let go.
  if ((await store.get(mark)) !== null) return { indexed: 0, finished: true };
  let indexed = 0;
  let cursor: string | null = null;
  do {
    const page: { keys: string[]; cursor: string | null } = await store.scanKeys(
      records.prefix,
      cursor,
      PAGE,
    );
    for (const key of page.keys) {
      const stored = await store.get(key);
      if (stored === null) continue;
      let record: R;
      try {
        record = records.read(stored.value);
      } catch {
        // A record this release cannot read is not listed (reading it by id fails the same way).
        continue;
      }
      if (await records.index(record)) indexed += 1;
    }
    cursor = page.cursor;
    if (stop()) return { indexed, finished: false };
  } while (cursor !== null);
  await store.insert(mark, new Date().toISOString(), MARK_KEPT_MS);
  return { indexed, finished: true };
}

/** The longest pause between two tries of a build that failed. */
const MAX_PAUSE_MS = 60_000;

/**
 * {@link rebuildIndexes} of one kind at a BFF's start: tried again, after a growing pause, while it fails (Redis
 * still connecting, a passing outage, an upstream away), until it is done or the BFF closes. Never rejects.
 */
async function buildAtStart<R>(
  records: IndexedRecords<R>,
  options: IndexBuildOptions & { stopped: () => boolean },
): Promise<number> {
  for (let attempt = 0; !options.stopped(); attempt += 1) {
    try {
      return await rebuildIndexes(records, options);
    } catch (error) {
      const pauseMs = Math.min(250 * 2 ** attempt, MAX_PAUSE_MS);
      const unavailable = error instanceof StoreUnavailableError;
      options.logger[unavailable ? 'info' : 'warn'](
        'partner lists: indexing stored records failed; tried again',
        {
          kind: records.kind,
          cause: String(error),
          retryInMs: pauseMs,
        },
      );
      await pause(pauseMs, options.stopped);
    }
  }
  return 0;
}

/** How many records of each kind this instance indexed at its start. */
export type IndexBuildCounts = Partial<Record<IndexedKind, number>>;

/** Every kind's build at a BFF's start, side by side (one kind failing holds no other up). Never rejects. */
export async function buildIndexesAtStart(
  kinds: readonly IndexedRecords<unknown>[],
  options: IndexBuildOptions & { stopped: () => boolean },
): Promise<IndexBuildCounts> {
  const counts = await Promise.all(kinds.map((records) => buildAtStart(records, options)));
  return Object.fromEntries(kinds.map((records, at) => [records.kind, counts[at] ?? 0]));
}

/**
 * The index build at a BFF's start as background work: it runs at once, while the BFF serves (lists fill in as it
 * goes); its close stops it after its page (the next start goes on) and resolves once it has.
 */
export function indexBuildAtStart(
  kinds: readonly IndexedRecords<unknown>[],
  options: IndexBuildOptions,
): BackgroundWork & { built: Promise<IndexBuildCounts> } {
  let stopped = false;
  const built = buildIndexesAtStart(kinds, { ...options, stopped: () => stopped });
  return {
    name: 'index build',
    built,
    close() {
      stopped = true;
      return built.then(() => undefined);
    },
  };
}
