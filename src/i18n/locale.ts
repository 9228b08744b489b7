/**
 * The console's languages (issue 23 point 2): Norwegian bokmål (`nb`) and English (`en`). The browser's first
 * preferred language decides (`nb`, `nn` and `no` all mean bokmål here; anything else English) until the person
 * chooses one, which is remembered on this device (localStorage `workspace-admin.language`). Formats (dates,
 * numbers, money, lists) follow the chosen language and the browser's region (`intlLocale`: `nb-NO`, `en-US`,
 * `en-NO` for English in a Norwegian browser).
 *
 * Framework-free; reads `navigator` and `localStorage` only when they exist (tests, the server).
 */
export type Locale = 'en' | 'nb';

export const LOCALES: readonly Locale[] = ['en', 'nb'];

const STORAGE_KEY = 'workspace-admin.language';

/** The language a BCP 47 tag means here: `nb`, `nn`, `no` (any region) -> `nb`; anything else, or none, -> `en`. */
export function localeOf(tag: string | null | undefined): Locale {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return primary === 'nb' || primary === 'nn' || primary === 'no' ? 'nb' : 'en';
}

/** The browser's preferred language's locale (the first of `navigator.languages`). */
export function browserLocale(): Locale {
  if (typeof navigator === 'undefined') return 'en';
  return localeOf(navigator.languages?.[0] ?? navigator.language);
}

/** The language chosen on this device, or null when none was. */
export function storedLocale(): Locale | null {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return stored === 'en' || stored === 'nb' ? stored : null;
  } catch {
    return null;
  }
}

/** Remembers the chosen language on this device (nothing when storage is refused). */
export function rememberLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode or storage full: the choice lasts for this page only.
  }
}

/** The language to show: the one chosen on this device, else the browser's. */
export function preferredLocale(): Locale {
  return storedLocale() ?? browserLocale();
}

/** The browser's region (`NO` of `nb-NO`), or null. */
function browserRegion(): string | null {
  if (typeof navigator === 'undefined') return null;
  for (const tag of navigator.languages ?? [navigator.language]) {
    try {
      const region = new Intl.Locale(tag).maximize().region;
      if (region) return region;
    } catch {
      // An unparsable tag: try the next.
    }
  }
  return null;
}

/**
 * `intlLocale`'s answers by language and the browser's languages: every date and number the screens format asks for
 * it (src/i18n/format.ts), and finding the region and whether Intl knows the pair are calls into ICU, which cost a
 * table of 50 rows several milliseconds a render when made each time. The browser's languages seldom change in a
 * page's life; when they do, the key does.
 */
const intlLocales = new Map<string, string>();

/** The Intl locale for a language: the language with the browser's region when Intl knows the pair (`nb-NO`, `en-GB`), else the language. */
export function intlLocale(locale: Locale): string {
  const languages = typeof navigator === 'undefined' ? '' : (navigator.languages ?? [navigator.language]).join(',');
  const key = `${locale}|${languages}`;
  let tag = intlLocales.get(key);
  if (tag === undefined) {
    tag = resolveIntlLocale(locale);
    intlLocales.set(key, tag);
  }
  return tag;
}

function resolveIntlLocale(locale: Locale): string {
  const region = browserRegion();
  if (!region) return locale === 'nb' ? 'nb-NO' : 'en-US';
  const tag = `${locale}-${region}`;
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : locale;
  } catch {
    return locale;
  }
}
