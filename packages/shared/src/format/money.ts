/**
 * @module
 * Money from minor units: display in the traveller's language, whole-rouble rounding, and a partner markup
 * with its rounding rule. Pure functions; formatters are cached per locale and currency.
 */
import type { Currency, Locale, Money, NonNegativeMoney } from '../upstream/upstream-common';

/** Minor units per major unit of every settlement currency (kopecks per rouble, cents per dollar). */
export const MINOR_UNITS_PER_MAJOR: Readonly<Record<Currency, number>> = { RUB: 100, USD: 100 };

/** How a marked-up price is rounded: to the minor unit, up to a whole unit, or up to a price ending in 9(9). */
export type MarkupRounding = 'none' | 'whole' | 'ninety_nine';

/** Options of {@link formatMoney}. */
export interface FormatMoneyOptions {
  /** Show roubles without kopecks (the account's `settlement.wholeRubOnly`); ignored for USD. */
  wholeRubOnly?: boolean;
}

/** Options of {@link applyMarkup}. */
export interface MarkupOptions {
  /** The account settles in whole roubles only (`settlement.wholeRubOnly`); ignored for USD. */
  wholeRubOnly?: boolean;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(locale: Locale, currency: Currency, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${fractionDigits}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Rounds an amount in kopecks up to whole roubles, still in kopecks, so that a price is never shown or charged
 * below what was computed (`51240` → `51300`).
 */
export function toWholeRub(amountMinor: number): number {
  const perRouble = MINOR_UNITS_PER_MAJOR.RUB;
  // `+ 0` turns the -0 of Math.ceil(-0.4) into 0.
  return Math.ceil(amountMinor / perRouble) * perRouble + 0;
}

/** Whether money of this currency is shown and charged in whole units under the given rule. */
function wholeUnitsOnly(currency: Currency, wholeRubOnly: boolean | undefined): boolean {
  return wholeRubOnly === true && currency === 'RUB';
}

/**
 * Money for people: `$7.90`, `790,00 ₽`, or `790 ₽` with `wholeRubOnly` (kopecks rounded up, as
 * {@link toWholeRub}). The currency sign follows the locale's conventions (narrow symbol).
 *
 * @example
 * formatMoney({ amountMinor: 129000, currency: 'RUB' }, 'ru', { wholeRubOnly: true }); // '1 290 ₽'
 */
export function formatMoney(money: Money, locale: Locale, options: FormatMoneyOptions = {}): string {
  const perMajor = MINOR_UNITS_PER_MAJOR[money.currency];
  if (wholeUnitsOnly(money.currency, options.wholeRubOnly)) {
    return formatterFor(locale, money.currency, 0).format(toWholeRub(money.amountMinor) / perMajor);
  }
  return formatterFor(locale, money.currency, 2).format(money.amountMinor / perMajor);
}

/** `amountMinor * (1 + percent / 100)` rounded up to a minor unit, without float noise (1.1 * 100 = 110.00000000000001). */
function markedUp(amountMinor: number, percent: number): number {
  const exact = (amountMinor * (100 + percent)) / 100;
  return Math.ceil(Number(exact.toFixed(6)));
}

function roundUpTo(amount: number, step: number): number {
  return Math.ceil(amount / step) * step;
}

/** The smallest amount ≥ `amount` whose minor part is 99 (4.20 → 4.99, 5.00 → 5.99, 4.99 → 4.99). */
function endingInNinetyNine(amount: number, perMajor: number): number {
  const candidate = Math.floor(amount / perMajor) * perMajor + (perMajor - 1);
  return candidate >= amount ? candidate : candidate + perMajor;
}

/** The smallest whole amount ≥ `amount` whose last whole digit is 9 (512.40 → 519, 519.00 → 519). */
function endingInNine(amount: number, perMajor: number): number {
  const units = Math.ceil(amount / perMajor);
  return (units + ((9 - (units % 10) + 10) % 10)) * perMajor;
}

/**
 * A retail price: `price` plus `markupPct` percent, rounded up to the minor unit, then by `rounding`:
 * `whole` up to a whole unit, `ninety_nine` up to the next price ending in .99 (or, in whole roubles, in 9:
 * 512.40 ₽ → 519 ₽). With `wholeRubOnly` a rouble price always ends up in whole roubles. Never rounds down.
 *
 * @throws RangeError when `markupPct` is negative or not a finite number.
 * @example
 * applyMarkup({ amountMinor: 54000, currency: 'RUB' }, 25, 'ninety_nine', { wholeRubOnly: true });
 * // { amountMinor: 67900, currency: 'RUB' }
 */
export function applyMarkup(
  price: NonNegativeMoney,
  markupPct: number,
  rounding: MarkupRounding,
  options: MarkupOptions = {},
): NonNegativeMoney {
  if (!Number.isFinite(markupPct) || markupPct < 0) {
    throw new RangeError(`markupPct must be a finite number >= 0, got ${markupPct}`);
  }
  const perMajor = MINOR_UNITS_PER_MAJOR[price.currency];
  const whole = wholeUnitsOnly(price.currency, options.wholeRubOnly);
  let amount = markedUp(price.amountMinor, markupPct);
  if (rounding === 'whole') amount = roundUpTo(amount, perMajor);
  if (rounding === 'ninety_nine')
    amount = whole ? endingInNine(amount, perMajor) : endingInNinetyNine(amount, perMajor);
  if (whole) amount = roundUpTo(amount, perMajor);
  return { amountMinor: amount, currency: price.currency };
}

/**
 * Money as a plain decimal string in major units, without a sign of the currency or a thousands separator, for
 * machines (an accounting export): `1299` USD → `'12.99'`, `-5` → `'-0.05'`.
 */
export function decimalAmount(money: Money): string {
  const digits = Math.round(Math.log10(MINOR_UNITS_PER_MAJOR[money.currency]));
  const sign = money.amountMinor < 0 ? '-' : '';
  const minor = String(Math.abs(money.amountMinor)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${minor}` : `${sign}${minor.slice(0, -digits)}.${minor.slice(-digits)}`;
}
