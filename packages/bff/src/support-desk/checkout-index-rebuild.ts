/**
 * @module
 * The partner lists' indexes built for checkouts written without them: those of a release before the indexes
 * (an upgraded data directory or Redis), or moved in by a state import (the indexes are not exported; the
 * import drops the mark below). Runs once per store at start, in the background, a page of keys at a time; the
 * mark (`checkoutIndexBuilt`) is set when every checkout then stored is indexed. Checkouts written meanwhile
 * index themselves, and indexing one twice changes nothing.
 */
import type { CheckoutIndex } from '../checkout/checkout-index';
import { readCheckoutRecord } from '../checkout/checkout-record';
import type { Logger } from '../logger';
import { STORE_KEYS, type Store, StoreUnavailableError } from '../store/store';

/** How long the mark is kept: when it is gone the checkouts are indexed again (which changes nothing). */
const MARK_KEPT_MS = 365 * 24 * 60 * 60 * 1000;
const PAGE = 200;

/** Index every stored checkout unless the store says it was done; answers how many were indexed. */
export async function rebuildCheckoutIndexes(options: {
  store: Store;
  index: Pick<CheckoutIndex, 'indexAll'>;
  logger: Logger;
  /** True once the BFF is closing: the build stops after its page, unmarked (the next start does it again). */
  stopped?: () => boolean;
}): Promise<number> {
  const { store, index, logger } = options;
  const stopped = options.stopped ?? (() => false);
  if ((await store.get(STORE_KEYS.checkoutIndexBuilt())) !== null) return 0;
  const prefix = STORE_KEYS.checkout('');
  let indexed = 0;
  let cursor: string | null = null;
  do {
    const page: { keys: string[]; cursor: string | null } = await store.scanKeys(prefix, cursor, PAGE);
    for (const key of page.keys) {
      const stored = await store.get(key);
      if (stored === null) continue;
      let record: ReturnType<typeof readCheckoutRecord>;
      try {
        record = readCheckoutRecord(stored.value);
      } catch {
        // A record this release cannot read is not listed (reading it by id fails the same way).
        continue;
      }
      await index.indexAll(record);
      indexed += 1;
    }
    cursor = page.cursor;
    if (stopped()) return indexed;
  } while (cursor !== null);
  await store.insert(STORE_KEYS.checkoutIndexBuilt(), new Date().toISOString(), MARK_KEPT_MS);
  if (indexed > 0) logger.info('partner lists: stored checkouts indexed', { checkouts: indexed });
  return indexed;
}

/** The longest pause between two tries of a build the store refused. */
const MAX_PAUSE_MS = 60_000;

/**
 * {@link rebuildCheckoutIndexes} at a BFF's start: tried again, after a growing pause, while the store is
 * unavailable (Redis still connecting, a passing outage), until it is done or the BFF closes. Never rejects.
 */
export async function buildCheckoutIndexesAtStart(
  options: Parameters<typeof rebuildCheckoutIndexes>[0] & { stopped: () => boolean },
): Promise<number> {
  for (let attempt = 0; !options.stopped(); attempt += 1) {
    try {
      return await rebuildCheckoutIndexes(options);
    } catch (error) {
      const pauseMs = Math.min(250 * 2 ** attempt, MAX_PAUSE_MS);
      const unavailable = error instanceof StoreUnavailableError;
      options.logger[unavailable ? 'info' : 'warn'](
        'partner lists: indexing the stored checkouts failed; tried again',
        {
          cause: String(error),
          retryInMs: pauseMs,
        },
      );
      // In short steps, so that a closing BFF is not held up by the pause.
      for (const until = Date.now() + pauseMs; Date.now() < until && !options.stopped(); ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  return 0;
}
