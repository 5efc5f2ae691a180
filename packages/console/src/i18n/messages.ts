/**
 * @module
 * The shape of the console's message tables: English is the reference, every other language must have every key
 * (the type says so, `messages.test.ts` checks the tables at run time). Loading and reading them: `translator.ts`.
 */
import type { en } from './en';

/** A message that depends on a count: one form per plural category the language uses. */
export interface PluralMessage {
  readonly one?: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
}

/** A complete message table. */
export type Messages = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends string ? string : PluralMessage;
};

/** A key of the table. */
export type MessageKey = keyof Messages;

/** Text for a key: `t('resultCount', { n: 3 })`. */
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;
