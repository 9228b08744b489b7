/**
 * The phones' default country and the reading of a phone number written in a country's national format (issue 34
 * point 2), shared by the contacts import and the new-contact form, framework-free (unit-tested in Node through
 * contact-import.test.ts). libphonenumber-js's `min` build: lengths and leading digits per country, and each
 * country's grouping; no number types.
 */
import parsePhoneNumber, { type CountryCode, getCountries, isSupportedCountry } from 'libphonenumber-js/min';

/**
 * A phone cell in E.164 (`+4791234567`), read with `country` when it has no `+` or `00` prefix; null when
 * libphonenumber-js (min metadata: lengths and leading digits per country) finds no valid number.
 */
export function toE164(text: string, country: CountryCode | null): string | null {
  const international = text.trim().replace(/^00/, '+');
  const parsed = parsePhoneNumber(international, country ? { defaultCountry: country } : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * The default country for phone numbers from the browser's languages: Norway for a Norwegian browser (`nb`, `nn`,
 * `no` or region `NO`, issue 20 point 2), else the first language's region when libphonenumber knows it, else null.
 */
export function defaultCountry(languages: readonly string[]): CountryCode | null {
  for (const language of languages) {
    const [lang = '', region = ''] = language.split(/[-_]/);
    if (['nb', 'nn', 'no'].includes(lang.toLowerCase()) || region.toUpperCase() === 'NO') return 'NO';
  }
  for (const language of languages) {
    const region = (language.split(/[-_]/)[1] ?? '').toUpperCase();
    if (isSupportedCountry(region)) return region;
  }
  return null;
}

/** At most this many national-format numbers of a file are tried (`countryOfNumbers`). */
export const COUNTRY_SAMPLE = 60;
/** The first this many national-format numbers are tried against every country; the rest against those found. */
const COUNTRY_SWEEP = 8;

/**
 * The country most of `numbers` are valid national-format numbers of (libphonenumber-js, min metadata), or null when
 * none is (issue 34 point 2: an en-US browser read Norwegian numbers as American and refused 20% of a Norwegian
 * shop's file). At most COUNTRY_SAMPLE national numbers are tried: the first COUNTRY_SWEEP against every country
 * libphonenumber knows (about 245), the rest only against the countries one of those was valid in (a parse costs
 * 15 to 60 microseconds: 100 numbers against every country took 1.4 to 4 s on the 2-core build machine, the sweep
 * and the candidates about a tenth of it). The min metadata checks lengths and leading digits only, so an 8-digit
 * number is valid in dozens of countries; among the countries tied on that count, the first to tell them apart
 * wins: the numbers written exactly as the country groups them (`912 34 567` is Norway's grouping, `91 23 45 67`
 * Denmark's), then the file's international numbers (`+47 ...`, `0047 ...`) by their country, then the countries
 * the file names elsewhere (`named`: the country codes ending Mailchimp's addresses, `NO`), then the country that
 * owns the calling code the numbers would have (Norway rather than Svalbard, which shares +47 and its grouping),
 * then the order of `prefer` (the workspace's country, the browser's). When nothing tells them apart, null.
 */
export function countryOfNumbers(numbers: Iterable<string>, prefer: readonly CountryCode[] = [], named: readonly string[] = []): CountryCode | null {
  const valid = new Map<CountryCode, number>();
  const grouped = new Map<CountryCode, number>();
  const international = new Map<CountryCode, number>();
  const add = (map: Map<CountryCode, number>, country: CountryCode) => map.set(country, (map.get(country) ?? 0) + 1);
  const national: string[] = [];
  let tried = 0;
  for (const raw of numbers) {
    const text = raw.trim();
    if (!/\d/.test(text)) continue;
    if (/^(\+|00)/.test(text)) {
      const country = parsePhoneNumber(text.replace(/^00/, '+'))?.country;
      if (country) add(international, country);
      continue;
    }
    if (tried >= COUNTRY_SAMPLE) continue;
    const countries = tried++ < COUNTRY_SWEEP ? getCountries() : [...valid.keys()];
    national.push(text);
    for (const country of countries) {
      const parsed = parsePhoneNumber(text, { defaultCountry: country });
      if (!parsed?.isValid()) continue;
      add(valid, country);
      if (/\s/.test(text) && parsed.formatNational() === text.replace(/\s+/g, ' ')) add(grouped, country);
    }
  }
  const most = Math.max(0, ...valid.values());
  let tied = [...valid].filter(([, count]) => count === most).map(([country]) => country);
  // How many of the numbers, read as `country`'s and written internationally, libphonenumber gives back to `country`.
  const owns = (country: CountryCode) =>
    national.filter((text) => {
      const parsed = parsePhoneNumber(text, { defaultCountry: country });
      return parsed?.isValid() && parsePhoneNumber(parsed.number)?.country === country;
    }).length;
  for (const score of [(c: CountryCode) => grouped.get(c) ?? 0, (c: CountryCode) => international.get(c) ?? 0, (c: CountryCode) => named.filter((name) => name.toUpperCase() === c).length, owns, (c: CountryCode) => (prefer.includes(c) ? prefer.length - prefer.indexOf(c) : 0)]) {
    if (tied.length < 2) break;
    const top = Math.max(...tied.map(score));
    if (top > 0) tied = tied.filter((country) => score(country) === top);
  }
  return tied.length === 1 ? tied[0]! : null;
}

/** The country most of `phones` (E.164, as the workspace's contacts hold them) belong to, or null. */
export function countryOfE164(phones: Iterable<string>): CountryCode | null {
  const counts = new Map<CountryCode, number>();
  for (const phone of phones) {
    const country = phone.startsWith('+') ? parsePhoneNumber(phone)?.country : undefined;
    if (country) counts.set(country, (counts.get(country) ?? 0) + 1);
  }
  let best: CountryCode | null = null;
  for (const [country, count] of counts) if (best === null || count > counts.get(best)!) best = country;
  return best;
}

/**
 * The phones' default country for an import (issue 34 point 2), in this order: the file's (`countryOfNumbers` of
 * its phone cells, ties broken by `fileCountries`, the countries its addresses name), then the workspace's (`countryOfE164` of its contacts' phones), then the browser's
 * (`defaultCountry` of its languages); `from` says which decided, for the dialog to say so.
 */
export function chooseCountry(input: { fileNumbers: Iterable<string>; fileCountries?: readonly string[]; workspacePhones: Iterable<string>; languages: readonly string[] }): {
  country: CountryCode | null;
  from: 'file' | 'workspace' | 'browser';
} {
  const browser = defaultCountry(input.languages);
  const workspace = countryOfE164(input.workspacePhones);
  const prefer = [workspace, browser].filter((country): country is CountryCode => country !== null);
  const file = countryOfNumbers(input.fileNumbers, prefer, input.fileCountries);
  if (file) return { country: file, from: 'file' };
  if (workspace) return { country: workspace, from: 'workspace' };
  return { country: browser, from: 'browser' };
}

