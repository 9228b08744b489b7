/**
 * Dates, times, relative times, numbers, money, lists and name order in the language shown and the browser's
 * region (issue 23 point 3: `1 000 000`, `kr 1 299,50`, `25. nov. 2026, 09:00` in nb-NO), always through Intl,
 * never by hand. Formatters are cached per locale and options.
 */
import { currentLocale } from './i18n';
import { intlLocale } from './locale';

const cache = new Map<string, unknown>();
function cached<T>(kind: string, options: object, make: (locale: string) => T): T {
  const locale = intlLocale(currentLocale());
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make(locale);
    cache.set(key, formatter);
  }
  return formatter;
}

/** The Intl locale in use (`nb-NO`, `en-US`). */
export const formatLocale = (): string => intlLocale(currentLocale());

/** `1234567` -> `1,234,567` (en-US), `1 234 567` (nb-NO). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

/** An amount in a currency: `kr 1 299,50` (nb-NO), `NOK 1,299.50` (en-US). */
export function formatMoney(value: number, currency: string): string {
  return formatNumber(value, { style: 'currency', currency });
}

/** A date (an ISO string, a Date or epoch milliseconds), by default `25. nov. 2026` / `Nov 25, 2026`. */
export function formatDate(value: string | number | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  return cached('date', options, (locale) => new Intl.DateTimeFormat(locale, options)).format(new Date(value));
}

/** A date and time, by default `25. nov. 2026, 09:00` / `Nov 25, 2026, 9:00 AM`. */
export function formatDateTime(value: string | number | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return formatDate(value, options);
}

/**
 * `-3, 'day'` -> `3 days ago` / `for 3 dager siden`; `numeric: 'auto'` says `yesterday` / `i går`. CLDR's bokmål counts
 * days as "døgn" (`for 6 døgn siden`), which no one says of a date: written "dager" (issue 34 point 9).
 */
export function formatRelative(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  const text = cached('relative', { numeric: 'auto' }, (locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })).format(value, unit);
  return (unit === 'day' || unit === 'days') && Math.abs(value) >= 2 ? text.replace(/(\d)(\s)døgn\b/u, '$1$2dager') : text;
}

/** `['a', 'b', 'c']` -> `a, b, and c` / `a, b og c` (`type: 'disjunction'` for "or" / "eller"). */
export function formatList(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
  return cached('list', { type }, (locale) => new Intl.ListFormat(locale, { style: 'long', type })).format(items);
}

/** Compares names as the language sorts them (æ, ø, å after z in Norwegian), case- and accent-aware, numbers by value. */
export function compareNames(a: string, b: string): number {
  return cached('collator', {}, (locale) => new Intl.Collator(locale, { numeric: true, sensitivity: 'base' })).compare(a, b);
}
