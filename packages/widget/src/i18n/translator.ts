/**
 * @module
 * Turns a message key and its parameters into text in the traveller's language: `{name}` placeholders,
 * plurals chosen by `Intl.PluralRules`, and one lazily loaded table per locale (a traveller downloads only
 * the language they read).
 */
import type { Locale } from '@esim-embed/shared';
import type { LazyTables, MessageKey, Messages, MessageTable, PluralMessage } from './messages';

const TABLES: Record<Locale, () => Promise<Messages>> = {
  en: () => import('./en').then((table) => table.en),
  ru: () => import('./ru').then((table) => table.ru),
  es: () => import('./es').then((table) => table.es),
  de: () => import('./de').then((table) => table.de),
  fr: () => import('./fr').then((table) => table.fr),
};

const LAZY_TABLES: { [T in keyof LazyTables]: Record<Locale, () => Promise<LazyTables[T]>> } = {
  purchase: {
    en: () => import('./purchase/purchase-en').then((table) => table.purchaseEn),
    ru: () => import('./purchase/purchase-ru').then((table) => table.purchaseRu),
    es: () => import('./purchase/purchase-es').then((table) => table.purchaseEs),
    de: () => import('./purchase/purchase-de').then((table) => table.purchaseDe),
    fr: () => import('./purchase/purchase-fr').then((table) => table.purchaseFr),
  },
  afterSale: {
    en: () => import('./after-sale/after-sale-en').then((table) => table.afterSaleEn),
    ru: () => import('./after-sale/after-sale-ru').then((table) => table.afterSaleRu),
    es: () => import('./after-sale/after-sale-es').then((table) => table.afterSaleEs),
    de: () => import('./after-sale/after-sale-de').then((table) => table.afterSaleDe),
    fr: () => import('./after-sale/after-sale-fr').then((table) => table.afterSaleFr),
  },
};

/**
 * The widget's languages: the contract's (`LocaleSchema.options`), read off the table above, which the compiler
 * holds to exactly those (taken from the table rather than the schema, so that the loader pulls in no zod).
 */
export const WIDGET_LOCALES = Object.keys(TABLES) as readonly Locale[];

/** Loads one locale's message table. */
export function loadMessages(locale: Locale): Promise<Messages> {
  return TABLES[locale]();
}

/** Loads one locale's lazy table `name` (with the steps that need it, not on the first screen). */
export function loadLazyMessages<T extends keyof LazyTables>(
  name: T,
  locale: Locale,
): Promise<LazyTables[T]> {
  return LAZY_TABLES[name][locale]();
}

/** Parameters of a message: `n` picks the plural form. */
export type MessageParams = Record<string, string | number>;

/** Text for a message key: `t('buy', { price: '€5' })`. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;

const translators = new WeakMap<MessageTable, Map<Locale, Translate>>();

/**
 * A translator for one locale and its table (a key of a table not loaded yet reads as itself), made once
 * per pair: the shell asks for one on every render.
 */
export function createTranslator(locale: Locale, messages: MessageTable): Translate {
  let byLocale = translators.get(messages);
  if (!byLocale) {
    byLocale = new Map();
    translators.set(messages, byLocale);
  }
  let translator = byLocale.get(locale);
  if (!translator) {
    translator = translatorFor(locale, messages);
    byLocale.set(locale, translator);
  }
  return translator;
}

function translatorFor(locale: Locale, messages: MessageTable): Translate {
  const rules = new Intl.PluralRules(locale);
  let numbers: Intl.NumberFormat | undefined;
  // A count below 1,000 reads the same in every widget language (Latin digits, no grouping): written as it
  // is, the first screen ("12 plans") needs no `Intl.NumberFormat`, whose first use in a page is a long
  // task on a slow phone.
  const formatNumber = (value: number) => {
    if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
    numbers ??= new Intl.NumberFormat(locale);
    return numbers.format(value);
  };
  return function translate(key, params = {}) {
    const message: string | PluralMessage | undefined = messages[key];
    if (message === undefined) return key;
    const template =
      typeof message === 'string' ? message : (message[rules.select(Number(params.n ?? 0))] ?? message.other);
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      return typeof value === 'number' ? formatNumber(value) : value;
    });
  };
}

/**
 * The locale to show: the element's `locale` attribute, else the page's `lang`, else the browser's
 * languages, limited to what the partner enabled; otherwise the partner's default, otherwise English.
 */
export function chooseLocale(
  candidates: readonly (string | null | undefined)[],
  enabled: readonly Locale[] = WIDGET_LOCALES,
  fallback: Locale = 'en',
): Locale {
  for (const candidate of candidates) {
    const language = candidate?.trim().toLowerCase().split(/[-_]/)[0];
    const match = enabled.find((locale) => locale === language);
    if (match) return match;
  }
  return enabled.includes(fallback) ? fallback : (enabled[0] ?? 'en');
}

/** The page's and the browser's language preferences, in order (empty on a server). */
export function pageLanguages(host: Element): string[] {
  const languages: string[] = [];
  const lang = host.closest('[lang]')?.getAttribute('lang') ?? host.ownerDocument?.documentElement.lang;
  if (lang) languages.push(lang);
  if (typeof navigator !== 'undefined') languages.push(...(navigator.languages ?? []), navigator.language);
  return languages;
}
