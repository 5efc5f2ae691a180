/**
 * @module
 * One page of stored records through a sorted index (`Store.sortedIndex`), newest first, from a keyset position:
 * the index's members are read a page at a time, their records loaded, and a filter the index cannot answer
 * applied to them. The reads are bounded — a page reads at most `limit × MAX_ROUNDS` members — so a page may hold
 * fewer than `limit` items and still have a next one; a member whose record is gone is skipped.
 */
import type { ListPage, ListPosition } from '../http/list-page';
import type { IndexEntry, SortedIndex } from './store';

/** Index pages one list page reads at most before it answers what it found. */
const MAX_ROUNDS = 4;

/** What one page reads. */
export interface IndexPageOptions<T> {
  index: SortedIndex;
  /** The position of the last item of the page before (from its cursor), or null for the first page. */
  after: ListPosition | null;
  limit: number;
  /** The record of a member, or null when it is gone. */
  load(member: string): Promise<T | null>;
  /** Whether a loaded record belongs on the page (the filters the index does not hold). Default: all do. */
  keep?: (record: T) => boolean;
}

/** The page of `index` after `after`: at most `limit` records, and where the next page starts (null: the end). */
export async function readIndexPage<T>(options: IndexPageOptions<T>): Promise<ListPage<T>> {
  const { index, limit, load } = options;
  const keep = options.keep ?? (() => true);
  const items: T[] = [];
  let after: IndexEntry | null =
    options.after === null ? null : { member: options.after.id, score: options.after.score };
  for (let round = 0; round < MAX_ROUNDS && items.length < limit; round += 1) {
    const wanted = limit - items.length;
    // One entry more than wanted tells whether anything follows (no empty last page).
    const found = await index.range({ fromScore: -Infinity, toScore: Infinity, after, limit: wanted + 1 });
    const entries = found.slice(0, wanted);
    const records = await Promise.all(entries.map((entry) => load(entry.member)));
    for (const record of records) if (record !== null && keep(record)) items.push(record);
    if (found.length <= wanted) return { items, next: null };
    after = entries.at(-1) ?? after;
  }
  return { items, next: after === null ? null : { score: after.score, id: after.member } };
}
