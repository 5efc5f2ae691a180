/**
 * @module
 * Times, days and money in the staff member's language (money through the shared `formatMoney`, as the widget).
 */
import { formatMoney, type Locale, type Money } from '@esim-embed/shared';

/** A date and time: `29 Nov 2026, 10:30`. */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A UTC day (`2026-11-29`) as the language writes it short: `29 Nov`. */
export function formatDay(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** Money: `$4.50`. */
export function formatAmount(money: Money, locale: Locale): string {
  return formatMoney(money, locale);
}
