/**
 * @module
 * The memory store's entry books: maps per book, ranges read by filtering (the memory store serves tests and one
 * instance; the embedded store and Redis read them through an index).
 */
import { createLocalEntryBook, type LocalBookSteps } from './local-entry-book';
import type { EntryBook } from './store';

interface BookState {
  entries: Map<string, string>;
  totals: Map<string, number>;
  deadlines: Map<string, number>;
  marks: Set<string>;
}

/** Every book of one memory store. */
export function createMemoryEntryBooks() {
  const books = new Map<string, BookState>();
  const bookOf = (name: string): BookState => {
    let found = books.get(name);
    if (found === undefined) {
      found = { entries: new Map(), totals: new Map(), deadlines: new Map(), marks: new Set() };
      books.set(name, found);
    }
    return found;
  };

  const steps: LocalBookSteps = {
    atomically: (work) => work(),
    getEntry: (book, id) => books.get(book)?.entries.get(id),
    setEntry: (book, id, value) => void bookOf(book).entries.set(id, value),
    deleteEntry: (book, id) => void books.get(book)?.entries.delete(id),
    getTotal: (book, total) => books.get(book)?.totals.get(total) ?? 0,
    addTotal(book, total, by) {
      const { totals } = bookOf(book);
      const next = (totals.get(total) ?? 0) + by;
      if (next === 0) totals.delete(total);
      else totals.set(total, next);
    },
    setDeadline(book, id, atMs) {
      if (atMs === null) books.get(book)?.deadlines.delete(id);
      else bookOf(book).deadlines.set(id, atMs);
    },
    due: (book, atMs, limit) =>
      [...(books.get(book)?.deadlines ?? [])]
        .filter(([, at]) => at <= atMs)
        .sort(([a, atA], [b, atB]) => atA - atB || (a < b ? -1 : 1))
        .slice(0, limit)
        .map(([id]) => id),
    addMark: (book, mark) => void bookOf(book).marks.add(mark),
    removeMark: (book, mark) => void books.get(book)?.marks.delete(mark),
    marks(book, { from, to, limit }) {
      const inRange = [...(books.get(book)?.marks ?? [])].filter((mark) => mark >= from && mark < to).sort();
      return { first: inRange.slice(0, limit), count: inRange.length };
    },
  };
  const run = async <T>(_what: string, work: () => T) => work();

  return {
    book: (name: string): EntryBook => createLocalEntryBook(name, steps, run),
    /** Every entry and non-zero total of every book, as `contents()` lists them. */
    listed(): Array<[string, string]> {
      const listed: Array<[string, string]> = [];
      for (const [name, book] of books) {
        for (const [id, value] of book.entries) listed.push([`book ${name} ${id}`, value]);
        for (const [total, value] of book.totals) listed.push([`book ${name} total ${total}`, String(value)]);
      }
      return listed;
    },
    clear: () => books.clear(),
  };
}
