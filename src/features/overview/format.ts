/**
 * Numbers, days and times of the overview through Intl (issue 24 point 4), in the browser's language and number
 * format (`undefined` locale, as the rest of the console until issue 23 chooses the console's own).
 */
const count = new Intl.NumberFormat(undefined);
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const dayYear = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** `1,234` (en), `1 234` (nb). */
export const formatCount = (value: number): string => count.format(value);
/** The clock time of an instant (epoch ms): `14:02`. */
export const formatTime = (epochMs: number): string => time.format(epochMs);
/** A day without its year: `23 Nov`. */
export const formatDay = (date: Date): string => day.format(date);
/** A day with its year: `Nov 23, 2026`. */
export const formatDate = (date: Date): string => dayYear.format(date);
/** A day and time: `Nov 23, 2026, 14:02`. */
export const formatDateTime = (date: Date): string => dateTime.format(date);
