/**
 * Decimal numbers as people write them (issue 14 point 6): in the reader's locale (`199,5` in nb-NO and de-DE,
 * `199.5` in en-US), and in CSV files whose columns each keep their own convention (`1,299.00` or `1.299,00`).
 * Framework-free and unit-tested. `locale` is a BCP 47 tag; undefined means the browser's (Intl's default).
 *
 * Rules (the issue names the separators' source, `Intl.NumberFormat(...).formatToParts`; the rest is decided here):
 * - A number is an optional sign (`-`, `+` or U+2212), digits with optional grouping, an optional decimal part and,
 *   in files, an optional exponent (`1e3`). Spaces of any kind (U+0020, U+00A0, U+202F, thin) and apostrophes
 *   group digits anywhere; the locale's group character (`,` in en-US, `.` in de-DE) only between groups of three
 *   (`1.299,5` is fine in de-DE, `19.95` is not a grouping there).
 * - Typed input (`parseDecimal`) takes the locale's separators; a `.` the locale does not use as its grouping
 *   separator, or cannot be one (`199.5` in de-DE), is also read as the decimal point, since keyboards' numeric pads
 *   type it. Anything else, such as `199,5` in en-US (grouping by one digit), is refused rather than guessed.
 * - A CSV column (`detectDecimalStyle`) is read with one decimal separator, `.` or `,`, chosen from its values: a
 *   value with both marks, a mark repeated, or a mark followed by other than three digits decides. When no value
 *   decides (`1,299` could be either), the browser locale's decimal separator is taken, and the result says so.
 */

export type DecimalSeparators = { decimal: string; group: string };

const separatorCache = new Map<string, DecimalSeparators>();

/** The decimal and grouping separators of `locale`, from `Intl.NumberFormat(locale).formatToParts`: `{ decimal: ',', group: '\u00a0' }` for nb-NO. */
export function decimalSeparators(locale?: string): DecimalSeparators {
  const key = locale ?? '';
  let found = separatorCache.get(key);
  if (!found) {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    found = { decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.', group: parts.find((part) => part.type === 'group')?.value ?? ',' };
    separatorCache.set(key, found);
  }
  return found;
}

/** Characters that group digits wherever they appear: spaces of every width, and apostrophes (de-CH). */
const LOOSE_GROUPING = /[\s\u00a0\u202f\u2009'\u2019]/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` read with `decimal` as the decimal separator and `group` as the grouping one (between groups of three
 * digits only), or null when it is not such a number. `exponent` allows a trailing `e<digits>`.
 */
export function parseWithSeparators(text: string, decimal: string, group: string, exponent = false): number | null {
  const compact = text.trim().replace(LOOSE_GROUPING, '').replace(/^\u2212/, '-');
  const match = /^([+-]?)(.*?)((?:e[+-]?\d+)?)$/i.exec(compact);
  if (!match) return null;
  const [, sign = '', body = '', power = ''] = match;
  if (power && !exponent) return null;
  const at = body.lastIndexOf(decimal);
  const whole = at < 0 ? body : body.slice(0, at);
  const fraction = at < 0 ? '' : body.slice(at + decimal.length);
  if (!/^\d*$/.test(fraction)) return null;
  let digits = whole;
  if (group && group !== decimal && whole.includes(group)) {
    if (!new RegExp(`^\\d{1,3}(?:${escape(group)}\\d{3})+$`).test(whole)) return null;
    digits = whole.split(group).join('');
  }
  if (!/^\d*$/.test(digits) || (digits === '' && fraction === '')) return null;
  const value = Number(`${sign}${digits || '0'}.${fraction || '0'}${power}`);
  return Number.isFinite(value) ? value : null;
}

/**
 * A number typed in the reader's locale (module rules): `parseDecimal('199,5', 'nb-NO')` is 199.5,
 * `parseDecimal('1.299,50', 'de-DE')` 1299.5, `parseDecimal('199,5', 'en-US')` null. Blank text is null too.
 */
export function parseDecimal(text: string, locale?: string): number | null {
  const { decimal, group } = decimalSeparators(locale);
  const local = parseWithSeparators(text, decimal, group);
  if (local !== null || decimal === '.') return local;
  return parseWithSeparators(text, '.', '');
}

const inputFormats = new Map<string, Intl.NumberFormat>();

/** `value` as an input shows it in `locale`: the locale's decimal separator, no grouping, every decimal kept (`199,5`). */
export function formatDecimal(value: number, locale?: string): string {
  const key = locale ?? '';
  let format = inputFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 });
    inputFormats.set(key, format);
  }
  return format.format(value);
}

/** An example of a number in `locale`, for messages: `1,234.5` (en-US), `1.234,5` (de-DE), `1 234,5` (nb-NO). */
export function decimalExample(locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(1234.5);
}

/** The decimal separator of a CSV column and how it was chosen: from its `values`, or the `locale`'s when none decides. */
export type DecimalStyle = { decimal: '.' | ','; group: ',' | '.'; from: 'values' | 'locale' };

/** What one value says about its column's decimal separator: `.`, `,`, or nothing (no mark, or `1,299` either way). */
function evidence(value: string): '.' | ',' | null {
  const body = value.trim().replace(LOOSE_GROUPING, '').replace(/e[+-]?\d+$/i, '');
  const dot = body.lastIndexOf('.');
  const comma = body.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const mark = dot >= 0 ? '.' : comma >= 0 ? ',' : null;
  if (!mark) return null;
  const parts = body.split(mark);
  if (parts.length > 2) return mark === '.' ? ',' : '.';
  return parts[1]!.length === 3 ? null : mark;
}

/**
 * The decimal separator of a column from its `values` (module rules): the one most values decide for (ties go to
 * `.`), or `locale`'s (`.` unless it uses `,`) when no value decides. The grouping separator is the other mark.
 */
export function detectDecimalStyle(values: Iterable<string>, locale?: string): DecimalStyle {
  let dots = 0;
  let commas = 0;
  for (const value of values) {
    const mark = evidence(value);
    if (mark === '.') dots += 1;
    else if (mark === ',') commas += 1;
  }
  if (dots || commas) return commas > dots ? { decimal: ',', group: '.', from: 'values' } : { decimal: '.', group: ',', from: 'values' };
  return decimalSeparators(locale).decimal === ',' ? { decimal: ',', group: '.', from: 'locale' } : { decimal: '.', group: ',', from: 'locale' };
}

/** A CSV cell read with its column's style (exponents allowed): `1.299,00` with a decimal comma is 1299. */
export function parseWithStyle(text: string, style: Pick<DecimalStyle, 'decimal' | 'group'>): number | null {
  return parseWithSeparators(text, style.decimal, style.group, true);
}
