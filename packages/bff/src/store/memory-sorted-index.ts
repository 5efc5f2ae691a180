/**
 * @module
 * A {@link SortedIndex} in this process's memory (the memory store's indexes): its entries in one array kept in
 * order by binary search, and each member's score and expiry by member. An add or remove costs O(log n) to find
 * its place (plus the array's move), a range O(log n + limit).
 */
import { comesAfter, type IndexEntry, type IndexRange, type SortedIndex } from './store';

interface Timed {
  score: number;
  expiresAt: number;
}

/** `a` before `b` in ascending order (score, then member). */
const ascending = (a: IndexEntry, b: IndexEntry) =>
  a.score !== b.score ? a.score - b.score : a.member < b.member ? -1 : a.member > b.member ? 1 : 0;

/**
 * A memory sorted index; `sweep()` drops its expired members (the store's sweeper calls it), `live()` lists the
 * others in ascending order (the store's `contents()`).
 */
export function createMemorySortedIndex(
  now: () => number,
): SortedIndex & { sweep(): void; live(): IndexEntry[] } {
  /** Ascending by (score, member). */
  const ordered: IndexEntry[] = [];
  const members = new Map<string, Timed>();

  /** The first position whose entry is not before `entry`. */
  function lowerBound(entry: IndexEntry): number {
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ascending(ordered[middle] as IndexEntry, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function drop(member: string): void {
    const timed = members.get(member);
    if (timed === undefined) return;
    members.delete(member);
    const at = lowerBound({ member, score: timed.score });
    if (ordered[at]?.member === member) ordered.splice(at, 1);
  }

  return {
    async add(member, score, ttlMs) {
      drop(member);
      members.set(member, { score, expiresAt: now() + ttlMs });
      ordered.splice(lowerBound({ member, score }), 0, { member, score });
    },
    async remove(member) {
      drop(member);
    },
    async range({ fromScore, toScore, after, limit }: IndexRange) {
      const time = now();
      const found: IndexEntry[] = [];
      // Start just above the highest entry that may be answered, and walk down.
      const top = after !== null && after.score <= toScore ? after : { member: '\u{10ffff}', score: toScore };
      const expired: string[] = [];
      for (let at = lowerBound(top); at-- > 0 && found.length < limit; ) {
        const entry = ordered[at] as IndexEntry;
        if (entry.score < fromScore) break;
        if (!comesAfter(entry, after) || entry.score > toScore) continue;
        if ((members.get(entry.member)?.expiresAt ?? 0) <= time) expired.push(entry.member);
        else found.push({ ...entry });
      }
      for (const member of expired) drop(member);
      return found;
    },
    live() {
      const time = now();
      return ordered
        .filter((entry) => (members.get(entry.member)?.expiresAt ?? 0) > time)
        .map((e) => ({ ...e }));
    },
    sweep() {
      const time = now();
      for (const [member, timed] of members) if (timed.expiresAt <= time) drop(member);
    },
  };
}
