/**
 * Numbers, days and times of the overview (issue 24 point 4) through Intl in the language shown and the browser's
 * region (issue 23 point 3), read at call time so a change of language shows at once. Its own few formatters, kept
 * per locale, rather than src/i18n/format.ts: sharing that module would make it a chunk of its own on this first
 * screen (scripts/first-screens.json, `/w/:id`).
 */
import { currentLocale } from '@/i18n/i18n';
import { intlLocale } from '@/i18n/locale';

type Formatters = { count: Intl.NumberFormat; time: Intl.DateTimeFormat; day: Intl.DateTimeFormat; date: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat };
const byLocale = new Map<string, Formatters>();

/** The formatters of the language shown (`nb-NO`, `en-US`). */
function formatters(): Formatters {
  const locale = intlLocale(currentLocale());
  let found = byLocale.get(locale);
  if (!found) {
    found = {
      count: new Intl.NumberFormat(locale),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
      day: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    };
    byLocale.set(locale, found);
  }
  return found;
}

/** `1,234` (en-US), `1 234` (nb-NO). */
export const formatCount = (value: number): string => formatters().count.format(value);
/** The clock time of an instant (epoch ms): `02:02 PM` (en-US), `14:02` (nb-NO). */
export const formatTime = (epochMs: number): string => formatters().time.format(epochMs);
/** A day without its year: `Nov 23` (en-US), `23. nov.` (nb-NO). */
export const formatDay = (date: Date): string => formatters().day.format(date);
/** A day with its year: `Nov 23, 2026` (en-US), `23. nov. 2026` (nb-NO). */
export const formatDate = (date: Date): string => formatters().date.format(date);
/** A day and time: `Nov 23, 2026, 2:02 PM` (en-US), `23. nov. 2026, 14:02` (nb-NO). */
export const formatDateTime = (date: Date): string => formatters().dateTime.format(date);
