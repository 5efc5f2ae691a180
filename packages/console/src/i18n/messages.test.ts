/** Every language's table has every key of the English one, and the translator fills parameters and plurals. */
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { CONSOLE_LOCALES, createTranslator, loadMessages } from './translator';

describe('console messages', () => {
  it.each(CONSOLE_LOCALES)('%s has every key, each a string or a plural with `other`', async (locale) => {
    const table = await loadMessages(locale);
    expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of Object.entries(table)) {
      expect(typeof message === 'string' || typeof message.other === 'string', key).toBe(true);
    }
  });

  it('fills parameters and picks the plural form', async () => {
    const t = createTranslator('en', await loadMessages('en'));
    expect(t('resultCount', { n: 1 })).toBe('1 sale shown');
    expect(t('resultCount', { n: 3 })).toBe('3 sales shown');
    expect(t('saleHeading', { id: 'chk_1' })).toBe('Sale chk_1');
  });
});
