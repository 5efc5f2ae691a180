/**
 * @module
 * Money, data and times in the traveller's language. Money and data sizes come from the shared helpers
 * (`formatMoney`, `formatPackageData`: one definition for the widget, the BFF and the demo); this module adds
 * the widget's own: the partner's whole-rouble rule from the session config, countdowns, date-times.
 */
import {
  formatMoney,
  formatPackageData,
  type Locale,
  type NonNegativeMoney,
  type Plan,
} from '@esim-embed/shared';

/** A retail price: `$4.50`, `1 290 ₽` (whole roubles, rounded up, when the partner settles so). */
export function formatPrice(money: NonNegativeMoney, locale: Locale, wholeRubOnly = false): string {
  return formatMoney(money, locale, { wholeRubOnly });
}

/** The data a plan gives: `3 GB`, `Unlimited` or `1 GB per day`. */
export function formatPlanData(
  plan: Pick<Plan, 'dataMb' | 'dailyDataMb' | 'unlimited'>,
  locale: Locale,
): string {
  return formatPackageData(plan, locale);
}

/** A countdown: `4:05`. */
export function formatCountdown(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A date and time: `22 Nov 2026, 10:30`. */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
