/**
 * @module
 * One page read across several sorted indexes at once (a partner's list spans its widgets, one index each, and
 * a search the names its index had: an entry held by two is read once):
 * their entries merged newest first, each resolved to the item it names — or passed over when it no longer fits
 * (its record gone or changed) — until the page is full. Each index is read a batch at a time from where it
 * stopped, so a page costs O(indexes · log n + what it reads), never a scan; and what it reads is bounded: a page
 * examines at most {@link ENTRIES_EXAMINED_PER_PAGE} entries, so a filter that matches little of a large index
 * answers a shorter page (even an empty one) with a cursor to go on from, never thousands of record reads for one
 * request. A page is its items and the position the next one starts after (the routes turn it into a signed
 * cursor: `http/list-page.ts`).
 */
import { comesAfter, type IndexEntry, type SortedIndex, type Store } from './store';

/** The most index entries one page resolves before it answers with what it found and where to go on. */
export const ENTRIES_EXAMINED_PER_PAGE = 1_000;

/** Where a page ends: the last item's score (its time, ms) and id; the next page starts strictly after it. */
export interface ListPosition {
  score: number;
  id: string;
}

/** One page of items and where the next one starts (null: this was the last). */
export interface ListPage<T> {
  items: T[];
  next: ListPosition | null;
}

/** What one page reads. */
export interface IndexPageRequest<T> {
  store: Store;
  /** The indexes to merge (names of `store.sortedIndex`). */
  names: readonly string[];
  /** The score range read (inclusive); `-Infinity`/`Infinity` for none. */
  fromScore: number;
  toScore: number;
  /** Where the page before ended, or null for the first page. */
  after: ListPosition | null;
  /** At most this many items. */
  limit: number;
  /**
   * The item an entry names, or undefined to pass it over (resolved a batch at a time, in parallel). The index
   * it came from (and its name) is given, for dropping an entry whose record is gone.
   */
  resolve(entry: IndexEntry, index: SortedIndex, name: string): Promise<T | undefined>;
  /** At most this many entries resolved (default {@link ENTRIES_EXAMINED_PER_PAGE}). */
  maxExamined?: number;
}

interface Cursor {
  name: string;
  index: SortedIndex;
  buffered: IndexEntry[];
  after: IndexEntry | null;
  exhausted: boolean;
}

/** One page of items across `names`, newest first, and where the next page starts. */
export async function readIndexPage<T>(request: IndexPageRequest<T>): Promise<ListPage<T>> {
  const { store, fromScore, toScore, limit } = request;
  const start = request.after === null ? null : { member: request.after.id, score: request.after.score };
  const cursors: Cursor[] = request.names.map((name) => ({
    name,
    index: store.sortedIndex(name),
    buffered: [],
    after: start,
    exhausted: false,
  }));
  // One more than the page: whether it exists decides whether a next page does.
  const wanted = limit + 1;
  const found: { entry: IndexEntry; item: T }[] = [];

  /** The next entry across all indexes (newest first), reading a batch where one ran dry. */
  async function next(): Promise<{ entry: IndexEntry; cursor: Cursor } | null> {
    await Promise.all(
      cursors
        .filter((cursor) => cursor.buffered.length === 0 && !cursor.exhausted)
        .map(async (cursor) => {
          const entries = await cursor.index.range({
            fromScore,
            toScore,
            after: cursor.after,
            limit: wanted,
          });
          cursor.buffered = entries;
          cursor.exhausted = entries.length < wanted;
          cursor.after = entries.at(-1) ?? cursor.after;
        }),
    );
    let newest: Cursor | null = null;
    for (const cursor of cursors) {
      const head = cursor.buffered[0];
      if (head === undefined) continue;
      const best = newest?.buffered[0];
      if (best === undefined || comesAfter(best, head)) newest = cursor;
    }
    const entry = newest?.buffered.shift();
    return newest === null || entry === undefined ? null : { entry, cursor: newest };
  }

  /** The last entry taken: one held by two indexes (the old and new name of one) is taken once. */
  let taken: IndexEntry | null = null;
  async function nextDistinct(): Promise<{ entry: IndexEntry; cursor: Cursor } | null> {
    for (;;) {
      const found = await next();
      if (found === null) return null;
      const repeated =
        taken !== null && taken.member === found.entry.member && taken.score === found.entry.score;
      taken = found.entry;
      if (!repeated) return found;
    }
  }

  const maxExamined = Math.max(wanted, request.maxExamined ?? ENTRIES_EXAMINED_PER_PAGE);
  let examined = 0;
  let lastExamined: IndexEntry | null = null;
  while (found.length < wanted) {
    if (examined >= maxExamined) {
      // Read enough for one request: what was found, and the next page goes on after the last entry examined.
      return {
        items: found.map(({ item }) => item),
        next: lastExamined === null ? null : { score: lastExamined.score, id: lastExamined.member },
      };
    }
    const batch: { entry: IndexEntry; cursor: Cursor }[] = [];
    while (batch.length < Math.min(wanted - found.length, maxExamined - examined)) {
      const distinct = await nextDistinct();
      if (distinct === null) break;
      batch.push(distinct);
    }
    if (batch.length === 0) break;
    examined += batch.length;
    lastExamined = batch.at(-1)?.entry ?? lastExamined;
    const items = await Promise.all(
      batch.map(({ entry, cursor }) => request.resolve(entry, cursor.index, cursor.name)),
    );
    batch.forEach(({ entry }, at) => {
      const item = items[at];
      if (item !== undefined) found.push({ entry, item });
    });
  }
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ item }) => item),
    next:
      found.length > limit && last !== undefined ? { score: last.entry.score, id: last.entry.member } : null,
  };
}
