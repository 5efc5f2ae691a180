/** Money display per locale, whole-rouble rounding and the markup rounding rules. */
import { describe, expect, it } from 'vitest';
import type { Currency, Locale } from '../upstream/upstream-common';
import { applyMarkup, decimalAmount, formatMoney, type MarkupRounding, toWholeRub } from './money';

/** ICU separates digits and signs with (narrow) no-break spaces; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const money = (amountMinor: number, currency: Currency) => ({ amountMinor, currency });

describe('formatMoney', () => {
  it.each<[Locale, string, string, string]>([
    // locale, RUB with kopecks, RUB whole roubles, USD
    ['en', '₽1,290.50', '₽1,291', '$7.90'],
    ['ru', '1 290,50 ₽', '1 291 ₽', '7,90 $'],
    ['es', '1290,50 ₽', '1291 ₽', '7,90 $'],
    ['de', '1.290,50 ₽', '1.291 ₽', '7,90 $'],
    ['fr', '1 290,50 ₽', '1 291 ₽', '7,90 $'],
  ])('%s: %s, %s, %s', (locale, rub, wholeRub, usd) => {
    expect(plain(formatMoney(money(129050, 'RUB'), locale))).toBe(rub);
    expect(plain(formatMoney(money(129050, 'RUB'), locale, { wholeRubOnly: true }))).toBe(wholeRub);
    expect(plain(formatMoney(money(790, 'USD'), locale))).toBe(usd);
  });

  it('shows two decimals for whole amounts unless whole roubles are asked for', () => {
    expect(plain(formatMoney(money(79000, 'RUB'), 'ru'))).toBe('790,00 ₽');
    expect(plain(formatMoney(money(79000, 'RUB'), 'ru', { wholeRubOnly: true }))).toBe('790 ₽');
    expect(formatMoney(money(500, 'USD'), 'en')).toBe('$5.00');
  });

  it('ignores wholeRubOnly for dollars', () => {
    expect(formatMoney(money(799, 'USD'), 'en', { wholeRubOnly: true })).toBe('$7.99');
  });

  it('rounds kopecks up to the next rouble, never down, when whole roubles are asked for', () => {
    expect(plain(formatMoney(money(51201, 'RUB'), 'ru', { wholeRubOnly: true }))).toBe('513 ₽');
    expect(plain(formatMoney(money(51200, 'RUB'), 'ru', { wholeRubOnly: true }))).toBe('512 ₽');
  });

  it('shows zero and negative balances', () => {
    expect(formatMoney(money(0, 'USD'), 'en')).toBe('$0.00');
    expect(formatMoney(money(-1250, 'USD'), 'en')).toBe('-$12.50');
    expect(plain(formatMoney(money(-150000, 'RUB'), 'ru', { wholeRubOnly: true }))).toBe('-1 500 ₽');
  });

  it('gives the same text from its cached formatter on repeated calls', () => {
    const first = formatMoney(money(12345, 'RUB'), 'de');
    expect(formatMoney(money(12345, 'RUB'), 'de')).toBe(first);
    expect(formatMoney(money(12345, 'USD'), 'de')).not.toBe(first);
  });
});

describe('toWholeRub', () => {
  it.each([
    [0, 0],
    [1, 100],
    [99, 100],
    [100, 100],
    [51240, 51300],
    [-40, 0],
    [-150, -100],
  ])('%i kopecks → %i', (amount, expected) => {
    expect(toWholeRub(amount)).toBe(expected);
  });
});

describe('applyMarkup', () => {
  it.each<[number, number, MarkupRounding, boolean, number]>([
    // wholesale kopecks/cents, markup %, rounding, wholeRubOnly, expected
    [54000, 0, 'none', false, 54000],
    [54000, 25, 'none', false, 67500],
    [1000, 10, 'none', false, 1100], // 1.1 * 1000 is 1100.0000000000002 in floats
    [333, 10, 'none', false, 367], // 366.3 rounds up to the next minor unit
    [41000, 25, 'whole', false, 51300], // 512.50 → 513
    [41000, 24.9, 'whole', false, 51300], // 512.09 → 513
    [40960, 25, 'whole', false, 51200], // exactly 512 stays
    [41000, 25, 'ninety_nine', false, 51299], // 512.50 → 512.99
    [40952, 25, 'ninety_nine', false, 51199], // 511.90 → 511.99
    [40960, 25, 'ninety_nine', false, 51299], // 512.00 → 512.99
    [41000, 25, 'ninety_nine', true, 51900], // whole roubles: 512.50 → 519
    [41520, 25, 'ninety_nine', true, 51900], // 519.00 stays 519
    [41600, 25, 'ninety_nine', true, 52900], // 520.00 → 529
    [41000, 25, 'none', true, 51300], // whole roubles even without a rounding rule
  ])('%i + %d%% (%s, wholeRubOnly %s) → %i', (amount, pct, rounding, wholeRubOnly, expected) => {
    expect(applyMarkup(money(amount, 'RUB'), pct, rounding, { wholeRubOnly })).toEqual(
      money(expected, 'RUB'),
    );
  });

  it('applies wholeRubOnly to roubles only', () => {
    expect(applyMarkup(money(1000, 'USD'), 25, 'none', { wholeRubOnly: true })).toEqual(money(1250, 'USD'));
    expect(applyMarkup(money(1000, 'USD'), 25, 'ninety_nine', { wholeRubOnly: true })).toEqual(
      money(1299, 'USD'),
    );
  });

  it('never goes below the marked-up amount', () => {
    for (const rounding of ['none', 'whole', 'ninety_nine'] as const) {
      for (let amount = 0; amount < 2000; amount += 37) {
        const result = applyMarkup(money(amount, 'RUB'), 15, rounding, { wholeRubOnly: true }).amountMinor;
        expect(result).toBeGreaterThanOrEqual(amount * 1.15);
        expect(result % 100).toBe(0);
      }
    }
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a markup of %d', (pct) => {
    expect(() => applyMarkup(money(1000, 'RUB'), pct, 'none')).toThrow(RangeError);
  });
});

describe('decimalAmount', () => {
  it('writes minor units as a plain decimal of the major unit', () => {
    expect(decimalAmount({ amountMinor: 1299, currency: 'USD' })).toBe('12.99');
    expect(decimalAmount({ amountMinor: 5, currency: 'USD' })).toBe('0.05');
    expect(decimalAmount({ amountMinor: 0, currency: 'RUB' })).toBe('0.00');
    expect(decimalAmount({ amountMinor: 129000, currency: 'RUB' })).toBe('1290.00');
    expect(decimalAmount({ amountMinor: -5, currency: 'USD' })).toBe('-0.05');
  });
});
