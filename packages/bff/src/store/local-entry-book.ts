/**
 * @module
 * The {@link EntryBook} of a store in this process (memory, the embedded SQLite store): the one description of
 * what a read and a change do, over the few synchronous steps each store keeps a book with. A change runs whole
 * in one synchronous call (SQLite: one transaction), so nothing else runs between its check and its writes.
 */
import type { BookChange, BookQuery, BookView, EntryBook, MarkRange } from './store';

/** The synchronous steps a store in this process keeps the books with. */
export interface LocalBookSteps {
  /** Run `work` whole: all of its writes or none. */
  atomically<T>(work: () => T): T;
  getEntry(book: string, id: string): string | undefined;
  setEntry(book: string, id: string, value: string): void;
  deleteEntry(book: string, id: string): void;
  getTotal(book: string, name: string): number;
  /** Add `by` to a total; one back at 0 may be dropped. */
  addTotal(book: string, name: string, by: number): void;
  setDeadline(book: string, id: string, atMs: number | null): void;
  due(book: string, atMs: number, limit: number): string[];
  addMark(book: string, mark: string): void;
  removeMark(book: string, mark: string): void;
  marks(book: string, range: MarkRange): { first: string[]; count: number };
}

/** How a store runs one step of a book: a read, or a write (which the embedded store makes durable). */
export type LocalBookRun = <T>(what: string, work: () => T, kind: 'read' | 'write') => Promise<T>;

/** The book `name` kept by `steps`. */
export function createLocalEntryBook(name: string, steps: LocalBookSteps, run: LocalBookRun): EntryBook {
  function readNow(query: BookQuery): BookView {
    const entries: Record<string, string> = {};
    for (const id of query.entries ?? []) {
      const value = steps.getEntry(name, id);
      if (value !== undefined) entries[id] = value;
    }
    const totals: Record<string, number> = {};
    for (const total of query.totals ?? []) totals[total] = steps.getTotal(name, total);
    const due = query.due === undefined ? [] : steps.due(name, query.due.atMs, query.due.limit);
    const marks = (query.marks ?? []).map((range) => steps.marks(name, range));
    return { entries, totals, due, marks };
  }

  function changeNow(change: BookChange): BookView | null {
    if ((steps.getEntry(name, change.id) ?? null) !== change.expected) return null;
    if (change.next === null) steps.deleteEntry(name, change.id);
    else steps.setEntry(name, change.id, change.next);
    steps.setDeadline(name, change.id, change.next === null ? null : change.deadlineMs);
    for (const [total, by] of Object.entries(change.totals)) if (by !== 0) steps.addTotal(name, total, by);
    for (const mark of change.removeMarks) steps.removeMark(name, mark);
    for (const mark of change.addMarks) steps.addMark(name, mark);
    return readNow(change.read ?? {});
  }

  return {
    read: (query) => run('read an entry book', () => readNow(query), 'read'),
    change: (change) => run('change an entry book', () => steps.atomically(() => changeNow(change)), 'write'),
  };
}
