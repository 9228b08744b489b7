/**
 * Prices of the products table and form (issue 6): amounts in major units with an ISO 4217 code (docs/decisions.md
 * section 1), formatted with `Intl.NumberFormat` in their currency and the reader's locale (`199,50 kr` in nb-NO),
 * and the currency choices of the form from `Intl.supportedValuesOf('currency')`. Amounts typed into inputs are read
 * in the same locale by src/lib/decimal.ts (issue 14 point 6), which the CSV import also uses per column. Prices
 * stay in the browser's locale, not src/i18n/format.ts's language-and-region (issue 23): an input reads `199,5` in
 * a German browser whichever language is shown, so the table shows `199,50 €` there too, never `€199.50` beside it.
 */
import { currentLocale } from '@/i18n/i18n';

const formats = new Map<string, Intl.NumberFormat>();

/** A cached `Intl.NumberFormat` for the currency (or plain two-decimal amounts when `currency` is ''). */
function formatFor(currency: string, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = currency
      ? new Intl.NumberFormat(locale, { style: 'currency', currency })
      : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formats.set(key, format);
  }
  return format;
}

/**
 * `amount` in `currency` for `locale` (default: the browser's): `$1,234.50`, `NOK 99.00`. Without a currency, or
 * with a code `Intl` refuses, the plain amount with two decimals, followed by the code when there is one.
 */
export function formatMoney(amount: number, currency: string | null | undefined, locale?: string): string {
  if (currency) {
    try {
      return formatFor(currency, locale).format(amount);
    } catch {
      return `${formatFor('', locale).format(amount)} ${currency}`;
    }
  }
  return formatFor('', locale).format(amount);
}

/** True when the original price is higher than the price: the original is shown struck through. */
export function isMarkedDown(price: number | null, originalPrice: number | null): originalPrice is number {
  return price !== null && originalPrice !== null && originalPrice > price;
}

/**
 * The currency choices: every code `Intl.supportedValuesOf('currency')` lists, labelled `EUR · Euro` (names in
 * `locale`, by default the language shown), plus `extra` codes the list lacks (a record's own currency), so an edit never loses its value.
 */
export function currencyOptions(extra: readonly string[] = [], locale?: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(locale ?? currentLocale(), { type: 'currency' });
  const codes = [...new Set([...Intl.supportedValuesOf('currency'), ...extra.filter(Boolean)])].sort();
  return codes.map((code) => {
    let name: string | undefined;
    try {
      name = names.of(code);
    } catch {
      name = undefined;
    }
    return { value: code, label: name && name !== code ? `${code} · ${name}` : code };
  });
}
