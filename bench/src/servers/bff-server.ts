/**
 * @module
 * Child process: a BFF built from a config (as the server entry builds it) on a loopback port, alone (on the
 * embedded store in a data folder, or on the memory store when told so) or as one of several instances on one
 * Redis, with commands to time a full catalog sync and to read the process's memory. With `allowOwnOrigin` its
 * own origin is added to every widget's allowed origins, so pages it serves itself may open sessions.
 */
import { randomBytes } from 'node:crypto';
import type { BffConfigInput, RedisTarget, StoreFootprint } from '@esim-embed/bff';
import { freePort } from '@esim-embed/bff/testing';
import { childOptions, serveParent } from '../child-process';

/** Options of the BFF child. */
export interface BffChildOptions {
  config: BffConfigInput;
  /** Secrets the config names. */
  env: Record<string, string>;
  widgetDist?: string | null;
  siteRoot?: string | null;
  /** Load every widget's catalog before reporting ready (default true). */
  startCatalogs?: boolean;
  allowOwnOrigin?: boolean;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Several instances: the same session secret (base64url) and one Redis store. */
  sessionSecret?: string;
  redisUrl?: string;
  /** Several instances on the primary of Sentinels or on a Redis Cluster (instead of `redisUrl`). */
  redisTarget?: RedisTarget;
  /** One instance on the embedded store in this folder (a BFF build without it uses its default store). */
  dataDir?: string;
  /**
   * One instance on the memory store, named rather than left to a default: the reference the embedded store is
   * measured against. Bench-only: the server entry never chooses the memory store.
   */
  memoryStore?: boolean;
}

/** What the BFF child reports when ready. */
export interface BffInfo {
  url: string;
}

/** One full catalog sync, timed, and the memory around it. */
export interface SyncFigures {
  durationMs: number;
  /** Resident set size before the sync and the process's peak since it started (bytes). */
  rssBefore: number;
  maxRss: number;
  /** Heap after a full GC before and after the sync (what the snapshot keeps). */
  heapBefore: number;
  heapAfter: number;
  offers: number;
}

/** Webhook deliveries to put on the queue at once (`seedWebhooks`). */
export interface SeedRequest {
  widgetId: string;
  count: number;
}

/** Memory of the process now. */
export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  maxRss: number;
}

/**
 * `BENCH_BFF_ENTRY` points at another copy of the BFF's `src/index.ts` — how a proposed change is measured
 * before / after without touching the package (see bench/README.md).
 */
const bffModule: typeof import('@esim-embed/bff') = await import(
  process.env.BENCH_BFF_ENTRY || '@esim-embed/bff'
);
const {
  createBff,
  createLogger,
  createMemoryStore,
  createRedisStore,
  parseConfig,
  resolveSecrets,
  serveBff,
} = bffModule;
const { openSqliteStore } = bffModule as Partial<typeof bffModule>;

const collect = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

const options = childOptions<BffChildOptions>();
const port = options.allowOwnOrigin ? await freePort() : 0;
const ownOrigins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
const input: BffConfigInput = options.allowOwnOrigin
  ? {
      ...options.config,
      widgets: options.config.widgets.map((widget) => ({
        ...widget,
        allowedOrigins: [...widget.allowedOrigins, ...ownOrigins],
      })),
    }
  : options.config;
const config = parseConfig(input, 'bench config');
const redisTarget: RedisTarget | undefined =
  options.redisTarget ?? (options.redisUrl ? { kind: 'url', url: options.redisUrl } : undefined);
const embeddedStore =
  !redisTarget && options.dataDir && openSqliteStore ? openSqliteStore({ dataDir: options.dataDir }) : null;
const bff = createBff({
  // Measured as production runs: answers unchecked against their schemas.
  checkAnswers: false,
  loaded: {
    config,
    secrets: resolveSecrets(config, options.env),
    sessionSecret: options.sessionSecret ? Buffer.from(options.sessionSecret, 'base64url') : randomBytes(32),
    source: 'bench',
  },
  store: redisTarget
    ? createRedisStore({ target: redisTarget })
    : embeddedStore
      ? embeddedStore
      : options.memoryStore
        ? createMemoryStore()
        : undefined,
  // Log lines go to stdout as in production; the harness points the child's stdout at /dev/null.
  logger: createLogger({ level: options.logLevel ?? 'info' }),
  widgetDist: options.widgetDist ?? null,
  siteRoot: options.siteRoot ?? null,
  publicOrigin: options.allowOwnOrigin ? ownOrigins[0] : undefined,
  startCatalogs: options.startCatalogs ?? true,
});
if (options.startCatalogs ?? true) {
  await Promise.all([...bff.widgets.values()].map((widget) => widget.catalog.destinations('en')));
}
const server = await serveBff(bff, { port, hostname: '127.0.0.1' });

serveParent(
  { url: server.url } satisfies BffInfo,
  {
    async sync({ widgetId }: { widgetId: string }): Promise<SyncFigures> {
      const widget = bff.widgets.get(widgetId);
      if (!widget) throw new Error(`no widget ${widgetId}`);
      const heapBefore = heap();
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      await widget.catalog.refresh({ force: true });
      const durationMs = performance.now() - started;
      const maxRss = process.resourceUsage().maxRSS * 1024;
      return {
        durationMs,
        rssBefore,
        maxRss,
        heapBefore,
        heapAfter: heap(),
        offers: (await widget.catalog.destinations('en')).destinations.reduce(
          (sum, d) => sum + d.planCount,
          0,
        ),
      };
    },
    /**
     * Pending deliveries for one widget, through the queue's own API. The list-based queue of releases before
     * the work queues (no `adoptLegacyList`) rewrote its whole list on every enqueue, so there the records and
     * the list are written as that release stored them, in one go.
     */
    async seedWebhooks({ widgetId, count }: SeedRequest): Promise<void> {
      const queue = bff.webhookQueue;
      const now = Date.now();
      const delivery = (index: number) => {
        const id = `evt_seed_${now}_${index}`;
        const body = JSON.stringify({ id, type: 'account.balance_low', widgetId, createdAt: new Date(now) });
        return {
          id,
          type: 'account.balance_low',
          widgetId,
          body,
          state: 'pending' as const,
          attempts: 0,
          createdAtMs: now,
          nextAttemptAtMs: now,
          leaseUntilMs: null,
          lastResult: null,
        };
      };
      const listBased = !('adoptLegacyList' in queue);
      // A store refusal on a busy machine (a command past its timeout) is tried again: each write is idempotent.
      const write = async (seeded: ReturnType<typeof delivery>) => {
        for (let attempt = 1; ; attempt += 1) {
          try {
            return listBased
              ? await bff.store.insert(
                  `webhook-delivery:${seeded.id}`,
                  JSON.stringify(seeded),
                  8 * 86_400_000,
                )
              : await queue.enqueue(seeded);
          } catch (error) {
            if (attempt >= 10) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
          }
        }
      };
      for (let start = 0; start < count; start += 100) {
        const slice = Array.from({ length: Math.min(100, count - start) }, (_, offset) =>
          delivery(start + offset),
        );
        await Promise.all(slice.map(write));
      }
      if (listBased) {
        const ids = Array.from({ length: count }, (_, index) => delivery(index).id);
        const key = 'webhook-queue';
        const stored = await bff.store.get(key);
        const value = JSON.stringify([...(stored === null ? [] : JSON.parse(stored.value)), ...ids]);
        if (stored === null) await bff.store.insert(key, value, 8 * 86_400_000);
        else await bff.store.compareAndSet(key, stored.version, value, 8 * 86_400_000);
      }
    },
    /** Deliveries still on the webhook queue. */
    async webhookDepth(): Promise<number> {
      const queue = bff.webhookQueue as unknown as {
        stats?: () => Promise<{ size: number }>;
        pendingIds?: () => Promise<string[]>;
      };
      if (queue.stats) return (await queue.stats()).size;
      return (await queue.pendingIds?.())?.length ?? 0;
    },
    /**
     * The embedded store's size on disk after a checkpoint (null on another store, or on a BFF build whose store
     * cannot measure itself).
     */
    storeFootprint: async (): Promise<StoreFootprint | null> => (await embeddedStore?.footprint?.()) ?? null,
    memory: (): MemoryFigures => ({
      rss: process.memoryUsage().rss,
      heapUsed: heap(),
      maxRss: process.resourceUsage().maxRSS * 1024,
    }),
  },
  () => server.close(),
);
