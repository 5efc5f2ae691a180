/**
 * @module
 * Money, data sizes and times in the traveller's language, through `Intl`. Prices are the retail amounts
 * the BFF sends; where the partner settles in whole roubles the kopecks are never shown.
 */
import type { Locale, NonNegativeMoney, Plan } from '@esim-embed/shared';
import type { Translate } from './translator';

const MINOR_UNITS = { RUB: 100, USD: 100 } as const;

/** A price: `5,00 $`, `1 290 ₽` (whole roubles when `wholeRubOnly`). */
export function formatPrice(money: NonNegativeMoney, locale: Locale, wholeRubOnly = false): string {
  const whole = wholeRubOnly && money.currency === 'RUB';
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: money.currency,
    minimumFractionDigits: whole || money.amountMinor % MINOR_UNITS[money.currency] === 0 ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(money.amountMinor / MINOR_UNITS[money.currency]);
}

/** A data size from megabytes: `500 MB`, `1 GB`, `1,5 GB` (1 GB = 1024 MB, as the catalog counts). */
export function formatDataSize(mb: number, locale: Locale): string {
  const gigabytes = mb >= 1024;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: gigabytes ? 'gigabyte' : 'megabyte',
    maximumFractionDigits: gigabytes ? 1 : 0,
  }).format(gigabytes ? mb / 1024 : mb);
}

/** The data a plan gives: a size, `Unlimited data` or `1 GB per day`. */
export function formatPlanData(plan: Plan, locale: Locale, t: Translate): string {
  if (plan.dailyDataMb !== null) return t('perDay', { size: formatDataSize(plan.dailyDataMb, locale) });
  if (plan.unlimited || plan.dataMb === null) return t('unlimited');
  return formatDataSize(plan.dataMb, locale);
}

/** A countdown: `4:05`. */
export function formatCountdown(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A date and time: `22 Nov, 10:30`. */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
