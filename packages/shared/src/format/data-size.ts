/**
 * @module
 * Data sizes of plans in the traveller's language: `500 MB`, `1.5 GB`, `Unlimited`, `1 GB per day`.
 * Binary base: 1 GB = 1024 MB, as the catalog counts megabytes (a 3 GB plan has `dataMb: 3072`).
 */

import type { Product } from '../upstream/upstream-catalog';
import type { Locale } from '../upstream/upstream-common';

/** Megabytes in a gigabyte (binary base, as the catalog's `dataMb` counts). */
export const MB_PER_GB = 1024;

/** The words that `Intl` has no unit for, per locale. `{size}` is replaced by a formatted size. */
const PACKAGE_WORDS: Readonly<Record<Locale, { unlimited: string; perDay: string }>> = {
  en: { unlimited: 'Unlimited', perDay: '{size} per day' },
  ru: { unlimited: 'Безлимит', perDay: '{size} в день' },
  es: { unlimited: 'Ilimitado', perDay: '{size} al día' },
  de: { unlimited: 'Unbegrenzt', perDay: '{size} pro Tag' },
  fr: { unlimited: 'Illimité', perDay: '{size} par jour' },
};

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(locale: Locale, unit: 'megabyte' | 'gigabyte'): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: unit === 'gigabyte' ? 1 : 0,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A size in megabytes for people: below 1024 MB in MB (`500 MB`), from 1024 MB in GB with at most one
 * decimal (`1 GB`, `1.5 GB`; `1,5 ГБ` in Russian, `1,5 Go` in French). Base 1024: 1 GB = 1024 MB.
 *
 * @example
 * formatDataSize(1536, 'en'); // '1.5 GB'
 */
export function formatDataSize(mb: number, locale: Locale): string {
  if (mb >= MB_PER_GB) return formatterFor(locale, 'gigabyte').format(mb / MB_PER_GB);
  return formatterFor(locale, 'megabyte').format(mb);
}

/** What {@link formatPackageData} reads of a product's `package`. */
export type PackageData = Pick<Product['package'], 'dataMb' | 'dailyDataMb' | 'unlimited'>;

/**
 * The data a package gives: `Unlimited` when unlimited, else `1 GB per day` when it has a daily allowance,
 * else its total (`3 GB`). An empty string when the package states no size at all.
 *
 * @example
 * formatPackageData({ dataMb: null, dailyDataMb: 1024, unlimited: false }, 'de'); // '1 GB pro Tag'
 */
export function formatPackageData(data: PackageData, locale: Locale): string {
  const words = PACKAGE_WORDS[locale];
  if (data.unlimited) return words.unlimited;
  if (data.dailyDataMb !== null)
    return words.perDay.replace('{size}', formatDataSize(data.dailyDataMb, locale));
  if (data.dataMb !== null) return formatDataSize(data.dataMb, locale);
  return '';
}
