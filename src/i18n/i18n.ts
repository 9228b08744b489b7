/**
 * Translations (issue 23), on Lingui's core (`@lingui/core`, 2.3 KB of gzip; docs/bundle.md says why it and not
 * i18next or Paraglide). Messages are ICU MessageFormat strings (plurals: `{count, plural, one {# kontakt} other
 * {# kontakter}}`) kept by key in `src/i18n/catalogs/<locale>/<area>.json`, compiled at build time
 * (vite-catalogs.ts), one chunk per language and area: a screen fetches only its areas in the language shown, and
 * a change of language fetches the areas already shown in the new one before switching.
 *
 * Keys are literal strings in the code (`t('contacts.title')`), so src/i18n/catalogs.test.ts can check that every
 * key used is in both catalogs and every catalog key is used. A key a catalog lacks shows as the key itself.
 */
import { type Messages, i18n } from '@lingui/core';
import { type Locale, intlLocale, preferredLocale, rememberLocale } from './locale';

export { i18n };

/** The catalogs' areas: what a screen needs loaded before it renders (`common`: the shell, shared components, errors). */
export type Area = 'common' | 'connect' | 'contacts' | 'posts' | 'products' | 'collections' | 'workspaces' | 'embed';

const catalogs = import.meta.glob<Messages>('./catalogs/*/*.json', { query: '?catalog', import: 'default' });

const loaded = new Set<string>();
const areas = new Set<Area>();
const listeners = new Set<(locale: Locale) => void>();

async function load(locale: Locale, wanted: Iterable<Area>): Promise<void> {
  await Promise.all(
    [...wanted].map(async (area) => {
      const key = `${locale}/${area}`;
      if (loaded.has(key)) return;
      const importer = catalogs[`./catalogs/${key}.json`];
      if (!importer) throw new Error(`No catalog ${key}`);
      i18n.load(locale, await importer());
      loaded.add(key);
    }),
  );
}

/** The language shown (`en` before `activateLocale`). */
export function currentLocale(): Locale {
  return (i18n.locale as Locale | undefined) || 'en';
}

/**
 * Loads `area`'s catalog in the language shown (and in any language activated later). Await it before rendering a
 * screen that uses the area's keys (the sections' lazy loaders do).
 */
export async function loadArea(area: Area): Promise<void> {
  areas.add(area);
  if (i18n.locale) await load(currentLocale(), [area]);
}

/**
 * Shows `locale`: loads the areas shown so far (and `needed`) in it, then switches every translated text, the
 * formats (Intl in the language and the browser's region) and `<html lang>`. `remember` keeps the choice on this device.
 */
export async function activateLocale(locale: Locale, options: { needed?: Area[]; remember?: boolean } = {}): Promise<void> {
  for (const area of options.needed ?? []) areas.add(area);
  await load(locale, areas);
  if (options.remember) rememberLocale(locale);
  i18n.activate(locale, [intlLocale(locale), locale]);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

/** Starts the console in the preferred language (the device's choice, else the browser's) with `needed` loaded. */
export function startLocale(needed: Area[]): Promise<void> {
  return activateLocale(preferredLocale(), { needed });
}

/** Calls `listener` after each change of language; returns the unsubscribe. */
export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message of `id` in the language shown, with `values` put in (numbers in plurals formatted for the locale). */
export function t(id: string, values?: Record<string, unknown>): string {
  return i18n._(id, values);
}
