/**
 * @module
 * The shape of a message table: English is the reference; every other locale must have every key
 * (the type says so, and `messages.test.ts` checks the loaded tables at run time).
 */
import type { en } from './en';

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

/** A complete message table. */
export type Messages = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : PluralMessage;
};

/** A key of the message table. */
export type MessageKey = keyof Messages;
