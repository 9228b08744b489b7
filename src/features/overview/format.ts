/**
 * Numbers, days and times of the overview (issue 24 point 4) through Intl in the language shown and the browser's
 * region (issue 23 point 3, src/i18n/format.ts): read at call time, so a change of language shows at once.
 */
import { formatDate as formatIntlDate, formatNumber } from '@/i18n/format';

/** `1,234` (en-US), `1 234` (nb-NO). */
export const formatCount = (value: number): string => formatNumber(value);
/** The clock time of an instant (epoch ms): `02:02 PM` (en-US), `14:02` (nb-NO). */
export const formatTime = (epochMs: number): string => formatIntlDate(epochMs, { hour: '2-digit', minute: '2-digit' });
/** A day without its year: `Nov 23` (en-US), `23. nov.` (nb-NO). */
export const formatDay = (date: Date): string => formatIntlDate(date, { day: 'numeric', month: 'short' });
/** A day with its year: `Nov 23, 2026` (en-US), `23. nov. 2026` (nb-NO). */
export const formatDate = (date: Date): string => formatIntlDate(date, { dateStyle: 'medium' });
/** A day and time: `Nov 23, 2026, 2:02 PM` (en-US), `23. nov. 2026, 14:02` (nb-NO). */
export const formatDateTime = (date: Date): string => formatIntlDate(date, { dateStyle: 'medium', timeStyle: 'short' });
