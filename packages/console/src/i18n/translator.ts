/**
 * @module
 * The console's languages: one message table per language, loaded lazily (a staff member downloads the one they
 * read), and the translator that reads it (`{name}` placeholders; `{n}` picks a plural form by
 * `Intl.PluralRules`).
 */
import type { Locale } from '@esim-embed/shared';
import type { Messages, PluralMessage, Translate } from './messages';

const TABLES: Record<Locale, () => Promise<Messages>> = {
  en: () => import('./en').then((table) => table.en),
  ru: () => import('./ru').then((table) => table.ru),
  es: () => import('./es').then((table) => table.es),
  de: () => import('./de').then((table) => table.de),
  fr: () => import('./fr').then((table) => table.fr),
};

/** The console's languages, each named in itself for the language switch. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  ru: 'Русский',
  es: 'Español',
  de: 'Deutsch',
  fr: 'Français',
};

/** The console's languages (the widget's five). */
export const CONSOLE_LOCALES = Object.keys(TABLES) as readonly Locale[];

/** Loads one language's table. */
export function loadMessages(locale: Locale): Promise<Messages> {
  return TABLES[locale]();
}

/** The translator of one language's table. */
export function createTranslator(locale: Locale, messages: Messages): Translate {
  const rules = new Intl.PluralRules(locale);
  return (key, params = {}) => {
    const message = messages[key];
    const text =
      typeof message === 'string'
        ? message
        : (message[rules.select(Number(params.n ?? 0)) as keyof PluralMessage] ?? message.other);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      params[name] === undefined ? whole : String(params[name]),
    );
  };
}
