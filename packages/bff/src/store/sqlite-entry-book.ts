/**
 * @module
 * The embedded store's entry books (schema 4): a row per entry with its deadline, a row per total, a row per
 * mark, each read through its primary key or the deadline index, so a change costs O(log n) rows of its own size.
 * A change is one transaction made durable by the group commit, as every other write of the store.
 */
import { createLocalEntryBook, type LocalBookRun, type LocalBookSteps } from './local-entry-book';
import type { SqliteDatabase } from './sqlite-engine';
import type { EntryBook } from './store';

/** The steps of every book of one database, its statements prepared once. */
export function createSqliteEntryBooks(db: SqliteDatabase, run: LocalBookRun) {
  const statements = {
    getEntry: db.prepare('SELECT value FROM book_entries WHERE book = ? AND id = ?'),
    setEntry: db.prepare(
      `INSERT INTO book_entries (book, id, value) VALUES (?, ?, ?)
       ON CONFLICT (book, id) DO UPDATE SET value = excluded.value`,
    ),
    deleteEntry: db.prepare('DELETE FROM book_entries WHERE book = ? AND id = ?'),
    setDeadline: db.prepare('UPDATE book_entries SET deadline = ? WHERE book = ? AND id = ?'),
    due: db.prepare(
      `SELECT id FROM book_entries WHERE book = ? AND deadline IS NOT NULL AND deadline <= ?
       ORDER BY deadline, id LIMIT ?`,
    ),
    getTotal: db.prepare('SELECT value FROM book_totals WHERE book = ? AND name = ?'),
    addTotal: db.prepare(
      `INSERT INTO book_totals (book, name, value) VALUES (?, ?, ?)
       ON CONFLICT (book, name) DO UPDATE SET value = value + excluded.value`,
    ),
    dropZeroTotal: db.prepare('DELETE FROM book_totals WHERE book = ? AND name = ? AND value = 0'),
    addMark: db.prepare('INSERT INTO book_marks (book, mark) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    removeMark: db.prepare('DELETE FROM book_marks WHERE book = ? AND mark = ?'),
    firstMarks: db.prepare(
      'SELECT mark FROM book_marks WHERE book = ? AND mark >= ? AND mark < ? ORDER BY mark LIMIT ?',
    ),
    countMarks: db.prepare(
      'SELECT count(*) AS count FROM book_marks WHERE book = ? AND mark >= ? AND mark < ?',
    ),
  };

  const steps: LocalBookSteps = {
    atomically: (work) => db.transaction(work),
    getEntry(book, id) {
      const row = statements.getEntry.get(book, id);
      return row === undefined ? undefined : String(row.value);
    },
    setEntry: (book, id, value) => void statements.setEntry.run(book, id, value),
    deleteEntry: (book, id) => void statements.deleteEntry.run(book, id),
    setDeadline: (book, id, atMs) => void statements.setDeadline.run(atMs, book, id),
    due: (book, atMs, limit) => statements.due.all(book, atMs, limit).map((row) => String(row.id)),
    getTotal: (book, name) => Number(statements.getTotal.get(book, name)?.value ?? 0),
    addTotal(book, name, by) {
      statements.addTotal.run(book, name, by);
      statements.dropZeroTotal.run(book, name);
    },
    addMark: (book, mark) => void statements.addMark.run(book, mark),
    removeMark: (book, mark) => void statements.removeMark.run(book, mark),
    marks: (book, { from, to, limit }) => ({
      first: statements.firstMarks.all(book, from, to, limit).map((row) => String(row.mark)),
      count: Number(statements.countMarks.get(book, from, to)?.count ?? 0),
    }),
  };

  return { book: (name: string): EntryBook => createLocalEntryBook(name, steps, run) };
}
