/** Every locale has every message, plurals follow each language's rules, money and data go through Intl. */
import type { Locale } from '@esim-embed/shared';
import { describe, expect, it } from 'vitest';
import { afterSaleEn } from './after-sale/after-sale-en';
import { en } from './en';
import { formatCountdown, formatPlanData, formatPrice } from './formatters';
import type { MessageTable, PluralMessage } from './messages';
import { purchaseEn } from './purchase/purchase-en';
import { chooseLocale, createTranslator, loadLazyMessages, loadMessages, WIDGET_LOCALES } from './translator';

describe('numbers in messages', () => {
  it.each(WIDGET_LOCALES)(
    '%s writes counts as Intl.NumberFormat would, small ones without it',
    async (locale) => {
      const t = createTranslator(locale, await loadMessages(locale));
      for (const n of [0, 1, 2, 5, 12, 21, 999, 1000, 12_345, 1.5]) {
        expect(t('planCount', { n }), `${locale} ${n}`).toContain(new Intl.NumberFormat(locale).format(n));
      }
    },
  );
});

/** Each table a locale has, with its English reference, as the widget loads it. */
const TABLES = [
  { name: 'main', reference: en, load: loadMessages },
  { name: 'purchase', reference: purchaseEn, load: (locale: Locale) => loadLazyMessages('purchase', locale) },
  {
    name: 'after-sale',
    reference: afterSaleEn,
    load: (locale: Locale) => loadLazyMessages('afterSale', locale),
  },
] as const;

/** Every table of `locale`, as one (what a step that loaded them all reads). */
const everyTable = async (locale: Locale) =>
  Object.assign({}, ...(await Promise.all(TABLES.map((table) => table.load(locale))))) as MessageTable;

describe('message tables', () => {
  describe.each(TABLES)('the $name table', ({ reference, load }) => {
    it.each(WIDGET_LOCALES)(
      '%s has every key, non-empty, with the same placeholders as English',
      async (locale) => {
        const table: Record<string, string | PluralMessage> = await load(locale);
        const rules = new Intl.PluralRules(locale);
        expect(Object.keys(table).sort()).toEqual(Object.keys(reference).sort());
        for (const [key, english] of Object.entries(reference) as [string, string | PluralMessage][]) {
          const message = table[key] as string | PluralMessage;
          const forms = typeof message === 'string' ? [message] : Object.values(message);
          const placeholders = (text: string) =>
            (text.match(/\{\w+\}/g) ?? []).filter((name) => name !== '{n}').sort();
          const expected = placeholders(typeof english === 'string' ? english : english.other);
          for (const form of forms) {
            expect(form.trim(), `${locale}.${key}`).not.toBe('');
            expect(placeholders(form), `${locale}.${key}`).toEqual(expected);
          }
          if (typeof message !== 'string') {
            // Each plural category the language uses has its own form (or falls back to `other` on purpose).
            for (const category of rules.resolvedOptions().pluralCategories) {
              expect(message[category] ?? message.other, `${locale}.${key}.${category}`).toBeTruthy();
            }
          }
        }
      },
    );
  });

  it('keeps each key in one table', () => {
    const keys = TABLES.flatMap((table) => Object.keys(table.reference));
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('uses Russian plural forms', async () => {
    const t = createTranslator('ru', await everyTable('ru'));
    expect(t('days', { n: 1 })).toBe('1 день');
    expect(t('days', { n: 3 })).toBe('3 дня');
    expect(t('days', { n: 5 })).toBe('5 дней');
    expect(t('days', { n: 21 })).toBe('21 день');
    expect(t('days', { n: 14 })).toBe('14 дней');
    expect(t('planCount', { n: 22 })).toBe('22 тарифа');
  });

  it('uses the other languages’ plural forms and fills parameters', async () => {
    const t = createTranslator('en', await everyTable('en'));
    expect(t('days', { n: 1 })).toBe('1 day');
    expect(t('days', { n: 30 })).toBe('30 days');
    expect(t('buy', { price: '$5' })).toBe('Buy for $5');
    const fr = createTranslator('fr', await everyTable('fr'));
    expect(fr('days', { n: 1 })).toBe('1 jour');
    expect(fr('days', { n: 2 })).toBe('2 jours');
    const de = createTranslator('de', await loadMessages('de'));
    expect(de('planCount', { n: 1 })).toBe('1 Tarif');
    expect(de('planCount', { n: 1000 })).toBe('1.000 Tarife');
  });
});

describe('locale choice', () => {
  it('takes the first supported candidate, limited to the enabled locales', () => {
    expect(chooseLocale(['ru-RU', 'en'])).toBe('ru');
    expect(chooseLocale([null, 'pt-BR', 'es-419'])).toBe('es');
    expect(chooseLocale(['ja'])).toBe('en');
    expect(chooseLocale(['ru'], ['en', 'de'], 'de')).toBe('de');
    expect(chooseLocale(['ja'], ['fr'], 'en')).toBe('fr');
  });
});

describe('formatting', () => {
  const usd = { amountMinor: 450, currency: 'USD' } as const;
  const rub = { amountMinor: 129_050, currency: 'RUB' } as const;
  const normalize = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  it.each([
    ['en', '$4.50', '₽1,290.50'],
    ['ru', '4,50 $', '1 290,50 ₽'],
    ['es', '4,50 $', '1290,50 ₽'],
    ['de', '4,50 $', '1.290,50 ₽'],
    ['fr', '4,50 $', '1 290,50 ₽'],
  ] as const)('formats money in %s', (locale, dollars, roubles) => {
    expect(normalize(formatPrice(usd, locale))).toBe(dollars);
    expect(normalize(formatPrice(rub, locale))).toBe(roubles);
  });

  it('shows whole roubles, rounded up, where the partner settles in whole roubles', () => {
    expect(normalize(formatPrice({ amountMinor: 129_000, currency: 'RUB' }, 'ru', true))).toBe('1 290 ₽');
    expect(normalize(formatPrice({ amountMinor: 129_050, currency: 'RUB' }, 'ru', true))).toBe('1 291 ₽');
    expect(formatPrice({ amountMinor: 500, currency: 'USD' }, 'en', true)).toBe('$5.00');
  });

  it('formats plan data and countdowns', () => {
    const daily = { dataMb: null, dailyDataMb: 1024, unlimited: false };
    expect(formatPlanData(daily, 'en')).toBe('1 GB per day');
    expect(normalize(formatPlanData({ ...daily, dailyDataMb: null, dataMb: 1536 }, 'de'))).toBe('1,5 GB');
    expect(formatPlanData({ ...daily, dailyDataMb: null, unlimited: true }, 'ru')).toBe('Безлимит');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
