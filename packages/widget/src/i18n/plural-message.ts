/**
 * @module
 * A message that depends on a count, and the mark that says so in a table: apart from `messages.ts`, whose table
 * type is read from the English table that uses the mark.
 */

/** A message that depends on a count, one form per `Intl.PluralRules` category the language uses. */
export interface PluralMessage {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

/** Marks a message as plural (keeps the table's type precise). */
export function plural(forms: PluralMessage): PluralMessage {
  return forms;
}
