/**
 * A page across sorted indexes examines a bounded number of entries: a filter that matches little of a large
 * index answers shorter pages with cursors to go on from, and following them finds every match once.
 */
import { describe, expect, it } from 'vitest';
import { type ListPage, type ListPosition, readIndexPage } from './index-pages';
import { createMemoryStore } from './memory-store';

describe('a page read across indexes', () => {
  it('examines at most its budget of entries, and the cursors it answers still find every match once', async () => {
    const store = createMemoryStore();
    const names = ['widget-a', 'widget-b'];
    for (let at = 0; at < 300; at += 1) {
      await store.sortedIndex(names[at % 2] as string).add(`item-${at}`, 1_000 + at, 60_000);
    }
    // Only every fiftieth item fits the filter: six of three hundred.
    const fits = (member: string) => Number(member.slice('item-'.length)) % 50 === 0;
    const found: string[] = [];
    const examinedPerPage: number[] = [];
    let after: ListPosition | null = null;
    for (let page = 0; page < 100; page += 1) {
      let examined = 0;
      const read: ListPage<string> = await readIndexPage({
        store,
        names,
        fromScore: Number.NEGATIVE_INFINITY,
        toScore: Number.POSITIVE_INFINITY,
        after,
        limit: 5,
        maxExamined: 40,
        async resolve(entry) {
          examined += 1;
          return fits(entry.member) ? entry.member : undefined;
        },
      });
      examinedPerPage.push(examined);
      found.push(...read.items);
      if (read.next === null) break;
      after = read.next;
    }
    expect(Math.max(...examinedPerPage)).toBeLessThanOrEqual(40);
    expect(examinedPerPage.length).toBeGreaterThan(5);
    expect(found).toEqual(['item-250', 'item-200', 'item-150', 'item-100', 'item-50', 'item-0']);
    await store.close();
  });
});
